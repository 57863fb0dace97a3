import type { ProjectRole } from '../../../../contract/projects.ts'
import { listProjectRoles as endpoint } from '../../../../contract/projectEndpoints.ts'
import { call, type CallOptions } from '../../../api/call.ts'

/** GET api/projects/:id/roles */
export function listProjectRoles(id: number, options?: CallOptions<ProjectRole[]>): Promise<ProjectRole[]> {
  return call(endpoint, { id }, options)
}
