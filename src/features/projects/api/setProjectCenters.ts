import type { ProjectDetail } from '../../../../contract/projects.ts'
import { setProjectCenters as endpoint } from '../../../../contract/projectEndpoints.ts'
import { call } from '../../../api/call.ts'

/** PUT api/projects/:id/centers: the whole set. */
export function setProjectCenters(id: number, centerIds: number[]): Promise<ProjectDetail> {
  return call(endpoint, { id, centerIds })
}
