import type { OpenProject } from '../../../../contract/projects.ts'
import { listOpenProjects as endpoint } from '../../../../contract/projectEndpoints.ts'
import { call, type CallOptions } from '../../../api/call.ts'

/** GET api/projects/open: active projects the caller is not a member of, by a name or number prefix. */
export function listOpenProjects(q: string | undefined, options?: CallOptions<OpenProject[]>): Promise<OpenProject[]> {
  return call(endpoint, { q }, options)
}
