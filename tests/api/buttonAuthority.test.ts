import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { body, testApp, type TestApp } from '../support/testApp.ts'

/** SPEC §7 studyObjectButtonAuthority answers the grants of the caller's roles, the same the routes check. */

let t: TestApp
beforeAll(async () => {
  t = await testApp()
  await t.createUser('admin2', 'abc123')
  await t.createUser('entry', 'abc123', { roles: ['dataEntry'] })
  await t.createUser('monitor', 'abc123', { roles: ['monitor'] })
  await t.createUser('nobody', 'abc123', { roles: [] })
})
afterAll(() => t?.close())

const ask = async (username: string) => {
  const token = await t.signIn(username, 'abc123')
  return t.app.inject({ method: 'GET', url: '/api/scientific/studyObject/studyObjectButtonAuthority', headers: { 'kr-d-token': token } })
}

describe('GET api/scientific/studyObject/studyObjectButtonAuthority', () => {
  it('gives a system administrator every button', async () => {
    const data = body(await ask('admin2')).data
    expect(Object.values(data ?? {}).every((v) => v === true)).toBe(true)
  })

  it('gives data entry what its role grants: view, add, edit and import, not delete, sign, export or unblind', async () => {
    expect(body(await ask('entry')).data).toEqual({
      view: true,
      add: true,
      edit: true,
      delete: false,
      sign: false,
      export: false,
      unblind: false,
      import: true,
    })
  })

  it('gives the monitor only the view', async () => {
    const data = body(await ask('monitor')).data
    expect(data).toMatchObject({ view: true, add: false, edit: false, delete: false, import: false })
  })

  it('refuses an account whose roles grant no project or subject work', async () => {
    const res = await ask('nobody')
    expect(res.statusCode).toBe(403)
  })
})
