import { sql, type Expression, type ExpressionBuilder, type SqlBool } from 'kysely'
import type { Database } from '../database.ts'
import type { Q } from '../query.ts'
import type { AuditRow } from '../tables/auditLog.ts'
import { prefixUpperBound } from './indicators.ts'

export interface AuditEntry {
  userId: number | null
  username: string
  ip: string
  action: string
  outcome: 'ok' | 'denied' | 'error'
  detail?: Record<string, unknown>
  /** The record the action was done to, under the kind the client names it by ('indicator', 'crf'). */
  object?: { type: string; id: number }
}

export async function appendAudit(db: Q, e: AuditEntry, at: string): Promise<void> {
  await db
    .insertInto('audit_log')
    .values({
      at,
      user_id: e.userId,
      username: e.username,
      ip: e.ip,
      action: e.action,
      outcome: e.outcome,
      detail: JSON.stringify(e.detail ?? {}),
      object_type: e.object?.type ?? null,
      object_id: e.object?.id ?? null,
    })
    .execute()
}

export function listAudit(db: Q, filter: { action?: string; username?: string } = {}): Promise<AuditRow[]> {
  let q = db.selectFrom('audit_log').selectAll()
  if (filter.action) q = q.where('action', '=', filter.action)
  if (filter.username !== undefined) q = q.where('username', '=', filter.username)
  return q.orderBy('id').execute()
}

/** A text column matched exactly, or by a prefix. */
export type TextMatch = { exact: string } | { prefix: string }

export interface AuditFilter {
  username?: TextMatch | undefined
  userId?: number | undefined
  action?: TextMatch | undefined
  objectType?: string | undefined
  objectId?: number | undefined
  ip?: TextMatch | undefined
  /** ISO instants as the rows store them (toISOString), both ends included. */
  from?: string | undefined
  to?: string | undefined
  outcome?: string | undefined
  /** Rows appended up to this id only: an export reads what existed when it began. */
  maxId?: number | undefined
}

type Eb = ExpressionBuilder<Database, 'audit_log'>

/**
 * A range of the column's index plus an exact test of the head: the range is what an index serves
 * (never LIKE), the substr test keeps the answer right under any collation (as the indicator list).
 */
function textCondition(eb: Eb, col: 'username' | 'action' | 'ip', m: TextMatch): Expression<SqlBool> {
  if ('exact' in m) return eb(col, '=', m.exact)
  const upper = prefixUpperBound(m.prefix)
  const head = eb(sql<string>`substr(${sql.ref(col)}, 1, ${sql.lit(Array.from(m.prefix).length)})`, '=', m.prefix)
  return eb.and([eb(col, '>=', m.prefix), ...(upper === null ? [] : [eb(col, '<', upper)]), head])
}

function auditConditions(eb: Eb, f: AuditFilter): Expression<SqlBool>[] {
  const out: Expression<SqlBool>[] = []
  if (f.username) out.push(textCondition(eb, 'username', f.username))
  if (f.userId !== undefined) out.push(eb('user_id', '=', f.userId))
  if (f.action) out.push(textCondition(eb, 'action', f.action))
  if (f.objectType !== undefined) out.push(eb('object_type', '=', f.objectType))
  if (f.objectId !== undefined) out.push(eb('object_id', '=', f.objectId))
  if (f.ip) out.push(textCondition(eb, 'ip', f.ip))
  if (f.from !== undefined) out.push(eb('at', '>=', f.from))
  if (f.to !== undefined) out.push(eb('at', '<=', f.to))
  if (f.outcome !== undefined) out.push(eb('outcome', '=', f.outcome))
  if (f.maxId !== undefined) out.push(eb('id', '<=', f.maxId))
  return out
}

/**
 * One page newest first: keyset on (at desc, id desc), `after` the (at, id) of the previous page's
 * last row. An equality filter and (at, id) share one index of migration 0013, read backwards.
 */
export function auditPageQuery(db: Q, f: AuditFilter, after: readonly [string, number] | null, limit: number) {
  return db
    .selectFrom('audit_log')
    .selectAll()
    .where((eb) => {
      const conds = auditConditions(eb, f)
      if (after) conds.push(eb(eb.refTuple('at', 'id'), '<', eb.tuple(after[0], after[1])))
      return eb.and(conds)
    })
    .orderBy('at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
}

export function auditPageRows(db: Q, f: AuditFilter, after: readonly [string, number] | null, limit: number): Promise<AuditRow[]> {
  return auditPageQuery(db, f, after, limit).execute()
}

export async function countAuditRows(db: Q, f: AuditFilter): Promise<number> {
  const row = await db
    .selectFrom('audit_log')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where((eb) => eb.and(auditConditions(eb, f)))
    .executeTakeFirstOrThrow()
  return Number(row.n)
}

/** The id of the newest row, 0 when there is none. */
export async function lastAuditId(db: Q): Promise<number> {
  const row = await db
    .selectFrom('audit_log')
    .select((eb) => eb.fn.max('id').as('id'))
    .executeTakeFirst()
  return Number(row?.id ?? 0)
}
