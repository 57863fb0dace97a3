import type { ProjectBaseInput, ProjectDetail } from '../../../../contract/projects.ts'
import { updateProjectBase as endpoint } from '../../../../contract/projectEndpoints.ts'
import { call } from '../../../api/call.ts'

/** PUT api/projects/:id/base */
export function updateProjectBase(id: number, base: ProjectBaseInput): Promise<ProjectDetail> {
  return call(endpoint, { id, base })
}
