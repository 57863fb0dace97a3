import type { AuditListQuery, AuditPage } from '../../../../contract/audit.ts'
import { listAudit as endpoint } from '../../../../contract/auditEndpoints.ts'
import { call, type CallOptions } from '../../../api/call.ts'

/** GET api/admin/audit/list: one keyset page, newest first (pass the last page's `next` as `cursor`). */
export function listAudit(query: Partial<AuditListQuery>, options?: CallOptions<AuditPage>): Promise<AuditPage> {
  return call(endpoint, query, options)
}
