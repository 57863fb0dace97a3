import { ESLint } from 'eslint'
import { describe, expect, it } from 'vitest'

/** The lint zone that keeps SQL in server/db (eslint.config.js), checked on snippets. */
const snippet = [
  "import { sql, type Kysely } from 'kysely'",
  "export const rows = (db: Kysely<{ a: { x: number } }>) => db.selectFrom('a').selectAll().execute()",
  'export const raw = sql`select 1`',
  '',
].join('\n')

async function problems(filePath: string) {
  const [result] = await new ESLint().lintText(snippet, { filePath })
  return (result?.messages ?? []).map((m) => m.ruleId)
}

describe('only repositories build SQL', () => {
  it('refuses the sql tag and query building in services, routes and plugins', async () => {
    for (const file of ['server/services/x.ts', 'server/routes/x/index.ts', 'server/plugins/x.ts']) {
      expect(await problems(file), file).toEqual(['@typescript-eslint/no-restricted-imports', 'no-restricted-syntax'])
    }
  }, 60_000)

  it('allows them in server/db', async () => {
    expect(await problems('server/db/repositories/x.ts')).toEqual([])
  }, 60_000)
})
