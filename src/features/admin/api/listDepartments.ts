import type { DepartmentList } from '../../../../contract/organization.ts'
import { listDepartments as endpoint } from '../../../../contract/adminEndpoints.ts'
import { call, type CallOptions } from '../../../api/call.ts'

/** GET api/admin/departments: the whole tree as a flat list. */
export function listDepartments(options?: CallOptions<DepartmentList>): Promise<DepartmentList> {
  return call(endpoint, {}, options)
}
