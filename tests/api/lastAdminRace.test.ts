import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { superRoleKey } from '../../contract/permissions.ts'
import { countActiveSysAdmins } from '../../server/db/repositories/users.ts'
import { testApp, type TestApp } from '../support/testApp.ts'

/**
 * The last-administrator rule under concurrency: two administrators disabling each other at the
 * same moment (on PostgreSQL, two connections) must not both succeed.
 */

let t: TestApp
beforeAll(async () => {
  t = await testApp()
})
afterAll(() => t?.close())

describe('two administrators disabling each other at once', () => {
  it('leaves exactly one of them, every time', async () => {
    for (let round = 0; round < 5; round++) {
      const a = await t.createUser(`race_a${round}`, 'abc123')
      const b = await t.createUser(`race_b${round}`, 'abc123')
      // Only these two administrate: the earlier rounds' survivor steps aside first.
      const others = await t.db.kysely.selectFrom('app_user').select('id').where('id', 'not in', [a, b]).execute()
      if (others.length > 0) {
        await t.db.kysely
          .updateTable('app_user')
          .set({ status: 0 })
          .where(
            'id',
            'in',
            others.map((o) => o.id),
          )
          .execute()
      }
      const [tokenA, tokenB] = [await t.signIn(`race_a${round}`, 'abc123'), await t.signIn(`race_b${round}`, 'abc123')]
      const disable = (token: string, id: number) =>
        t.app.inject({ method: 'POST', url: `/api/admin/users/${id}/status`, payload: { status: 0 }, headers: { 'kr-d-token': token } })
      const answers = await Promise.all([disable(tokenA, b), disable(tokenB, a)])
      // The other is refused: as the last administrator (409) when both passed the sign-in check
      // first, or as signed out (401) when the first had already disabled them.
      const [won, lost] = answers.map((r) => r.statusCode).sort()
      const bodies = answers.map((r) => r.body).join(' | ')
      expect(won, bodies).toBe(200)
      expect([409, 401], bodies).toContain(lost)
      expect(await countActiveSysAdmins(t.db.kysely, superRoleKey, new Date().toISOString())).toBe(1)
    }
  })
})
