import { sql, type Expression, type SqlBool } from 'kysely'

/**
 * Which rows of a list an actor may see, as data the policy (server/services/policy.ts) hands to
 * a repository. The repository turns it into a condition inside the list's own SQL, so keyset
 * pages and totals count only visible rows; filtering a page after the query would leave pages
 * short and totals wrong. The project and center issues add variants here (for example
 * `{ kind: 'projects'; projectIds }`) and one branch each in `scopeConditions`.
 */
export type ListScope = { kind: 'all' } | { kind: 'none' }

/** The scope as conditions to AND into the list's WHERE; none for 'all', so its plan is unchanged. */
export function scopeConditions(scope: ListScope): Expression<SqlBool>[] {
  switch (scope.kind) {
    case 'all':
      return []
    case 'none':
      return [sql<SqlBool>`1 = 0`]
  }
}
