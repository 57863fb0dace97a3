/** The audit log calls the client makes (contract/audit.ts holds the schemas and paths). */
import { auditListQuery, auditPage, auditPaths } from './audit.ts'
import { endpoint } from './endpoint.ts'

/** One keyset page of the audit log, newest first; pass the last page's `next` as `cursor`. */
export const listAudit = endpoint({
  method: 'GET',
  input: auditListQuery.partial(),
  output: auditPage,
  request: (query) => ({ path: auditPaths.list, query }),
})
