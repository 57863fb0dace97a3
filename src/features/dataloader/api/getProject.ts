import { getProject as endpoint } from '../../../../contract/projectEndpoints.ts'
import type { ProjectDetail } from '../../../../contract/projects.ts'
import { call, type CallOptions } from '../../../api/call.ts'

/** GET api/projects/:id: the project's name, plan and status for the screen's header. */
export function getProject(id: number, options?: CallOptions<ProjectDetail>): Promise<ProjectDetail> {
  return call(endpoint, { id }, options)
}
