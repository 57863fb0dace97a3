import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { indicatorListQuery } from '../../contract/dictionary.ts'
import { listIndicators } from '../../server/services/indicators.ts'
import { listTemplates } from '../../server/services/templates.ts'
import { apiCalls } from '../support/apiCalls.ts'
import { testApp, type TestApp } from '../support/testApp.ts'

/** A list scope is a condition inside the list's SQL: pages, cursors and totals count only what it admits. */

let t: TestApp
let token: string
const { call, data } = apiCalls(
  () => t,
  () => token,
  '/api/',
)

beforeAll(async () => {
  t = await testApp()
  await t.createUser('dm', 'abc123')
  token = await t.signIn('dm', 'abc123')
  for (const code of ['A1', 'A2', 'A3']) {
    data(await call('POST', 'dictionary/indicators', { code, nameZh: code, type: 'blank', display: 'input' }))
  }
  for (const name of ['CRF 1', 'CRF 2']) data(await call('POST', 'templates', { name }))
})
afterAll(() => t?.close())

describe('list scopes', () => {
  it('all: every row, paged by keyset with a total', async () => {
    const first = await listIndicators(t.app.ctx, indicatorListQuery.parse({ limit: 2 }), { kind: 'all' })
    expect(first.rows.map((r) => r.code)).toEqual(['A1', 'A2'])
    expect(first.total).toBe(3)
    const next = await listIndicators(t.app.ctx, indicatorListQuery.parse({ limit: 2, after: first.next }), { kind: 'all' })
    expect(next.rows.map((r) => r.code)).toEqual(['A3'])
    expect((await listTemplates(t.app.ctx, { kind: 'crf' }, { kind: 'all' })).map((r) => r.name)).toEqual(['CRF 1', 'CRF 2'])
  })

  it('none: no row, no next page, a total of 0', async () => {
    expect(await listIndicators(t.app.ctx, indicatorListQuery.parse({ limit: 2 }), { kind: 'none' })).toEqual({
      rows: [],
      next: null,
      total: 0,
    })
    expect(await listTemplates(t.app.ctx, { kind: 'crf' }, { kind: 'none' })).toEqual([])
  })
})
