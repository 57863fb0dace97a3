import type { ProjectDetail } from '../../../../contract/projects.ts'
import { getProject as endpoint } from '../../../../contract/projectEndpoints.ts'
import { call, type CallOptions } from '../../../api/call.ts'

/** GET api/projects/:id: whether it manages biomaterial, its centers and queues. */
export function getProject(id: number, options?: CallOptions<ProjectDetail>): Promise<ProjectDetail> {
  return call(endpoint, { id }, options)
}
