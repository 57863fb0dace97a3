import type { Application } from '../../../../contract/projects.ts'
import { listMyApplications as endpoint } from '../../../../contract/projectEndpoints.ts'
import { call, type CallOptions } from '../../../api/call.ts'

/** GET api/projects/applications/mine: the caller's own applications, newest first. */
export function listMyApplications(options?: CallOptions<Application[]>): Promise<Application[]> {
  return call(endpoint, {}, options)
}
