import type { Application } from '../../../../contract/projects.ts'
import { listApplications as endpoint } from '../../../../contract/projectEndpoints.ts'
import { call, type CallOptions } from '../../../api/call.ts'

/** GET api/projects/:id/applications */
export function listApplications(id: number, options?: CallOptions<Application[]>): Promise<Application[]> {
  return call(endpoint, { id }, options)
}
