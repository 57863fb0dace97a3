import { sql, type Expression, type SqlBool } from 'kysely'

/**
 * Which rows of a list an actor may see, as data the policy (server/services/policy.ts) hands to
 * a repository. The repository turns it into a condition inside the list's own SQL, so keyset
 * pages and totals count only visible rows; filtering a page after the query would leave pages
 * short and totals wrong.
 * - all / none: global lists (dictionary, templates).
 * - memberOf: the project list: projects the user is a member of, plus those in `statuses`
 *   (an auditor sees every project submitted to audit).
 * - project: rows of one project, within the queues and centers the member's project role
 *   grants (null: every one).
 */
export type ListScope =
  | { kind: 'all' }
  | { kind: 'none' }
  | { kind: 'memberOf'; userId: number; statuses: readonly string[] }
  | { kind: 'project'; projectId: number; queueIds: readonly number[] | null; centerIds: readonly number[] | null }

/** The columns of the listed table a scope constrains, as `table.column` references. */
export interface ScopeColumns {
  project?: string
  status?: string
  queue?: string
  center?: string
}

const inList = (column: string, ids: readonly (number | string)[]): Expression<SqlBool> =>
  ids.length === 0 ? sql<SqlBool>`1 = 0` : sql<SqlBool>`${sql.ref(column)} in (${sql.join(ids.map((v) => sql`${v}`))})`

/**
 * The scope as conditions to AND into the list's WHERE; none for 'all', so its plan is unchanged.
 * A scope that needs a column the caller did not name sees nothing: never more than allowed.
 */
export function scopeConditions(scope: ListScope, columns: ScopeColumns = {}): Expression<SqlBool>[] {
  switch (scope.kind) {
    case 'all':
      return []
    case 'none':
      return [sql<SqlBool>`1 = 0`]
    case 'memberOf': {
      if (!columns.project) return [sql<SqlBool>`1 = 0`]
      const member = sql<SqlBool>`${sql.ref(columns.project)} in (select m.project_id from project_member m where m.user_id = ${scope.userId})`
      if (scope.statuses.length === 0 || !columns.status) return [member]
      return [sql<SqlBool>`(${member} or ${inList(columns.status, scope.statuses)})`]
    }
    case 'project': {
      if (!columns.project) return [sql<SqlBool>`1 = 0`]
      const out: Expression<SqlBool>[] = [sql<SqlBool>`${sql.ref(columns.project)} = ${scope.projectId}`]
      if (scope.queueIds) out.push(columns.queue ? inList(columns.queue, scope.queueIds) : sql<SqlBool>`1 = 0`)
      if (scope.centerIds) out.push(columns.center ? inList(columns.center, scope.centerIds) : sql<SqlBool>`1 = 0`)
      return out
    }
  }
}
