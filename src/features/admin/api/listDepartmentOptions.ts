import { listDepartmentOptions as endpoint, type DepartmentOption } from '../../../../contract/userEndpoints.ts'
import { call } from '../../../api/call.ts'

/** GET api/admin/departments (the organization screens' flat list), for the department picker. */
export function listDepartmentOptions(signal?: AbortSignal): Promise<DepartmentOption[]> {
  return call(endpoint, {}, { signal, toast: false })
}
