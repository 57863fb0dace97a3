import { CompiledQuery, sql } from 'kysely'
import type { Db } from '../../server/db/connect.ts'

/** A query plan as the database chose it for these very parameters. */
export interface Plan {
  /** One line per step, for a readable failure message. */
  lines: string[]
  /** The steps that sort rows the scan did not deliver in order; empty when an index gives the order. */
  sorts: string[]
  /** The indexes the plan reads. */
  indexes: string[]
}

interface PgNode {
  'Node Type': string
  'Index Name'?: string
  'Sort Key'?: string[]
  Plans?: PgNode[]
}

/**
 * The plan of a compiled Kysely query: SQLite's EXPLAIN QUERY PLAN, PostgreSQL's EXPLAIN
 * (FORMAT JSON) with the parameters bound, so both plan what the repository runs.
 * `sortFreeIfAny`: PostgreSQL plans with sorting disabled, so the plan shows whether any plan
 * without a sort exists, where its costs would rightly sort a few dozen rows instead (SQLite
 * has no such switch and plans as usual).
 */
export async function explain(db: Db, q: CompiledQuery, opts: { sortFreeIfAny?: boolean } = {}): Promise<Plan> {
  if (db.dialect === 'sqlite') {
    const res = await db.kysely.executeQuery<{ detail: string }>(CompiledQuery.raw(`EXPLAIN QUERY PLAN ${q.sql}`, [...q.parameters]))
    const lines = res.rows.map((r) => r.detail)
    return {
      lines,
      sorts: lines.filter((l) => l.includes('USE TEMP B-TREE')),
      indexes: lines.flatMap((l) => [...l.matchAll(/USING (?:COVERING )?INDEX (\w+)/g)].map((m) => m[1]!)),
    }
  }
  const res = await db.kysely.transaction().execute(async (trx) => {
    if (opts.sortFreeIfAny) {
      await sql`SET LOCAL enable_sort = off`.execute(trx)
      await sql`SET LOCAL enable_incremental_sort = off`.execute(trx)
    }
    return trx.executeQuery<{ 'QUERY PLAN': [{ Plan: PgNode }] }>(CompiledQuery.raw(`EXPLAIN (FORMAT JSON) ${q.sql}`, [...q.parameters]))
  })
  const nodes: PgNode[] = []
  const walk = (n: PgNode) => {
    nodes.push(n)
    for (const c of n.Plans ?? []) walk(c)
  }
  walk(res.rows[0]!['QUERY PLAN'][0].Plan)
  return {
    lines: nodes.map((n) => [n['Node Type'], n['Index Name'] ?? '', n['Sort Key']?.join(', ') ?? ''].filter(Boolean).join(' ')),
    sorts: nodes.filter((n) => n['Node Type'].endsWith('Sort')).map((n) => `${n['Node Type']} ${n['Sort Key']?.join(', ') ?? ''}`),
    indexes: nodes.flatMap((n) => (n['Index Name'] ? [n['Index Name']] : [])),
  }
}
