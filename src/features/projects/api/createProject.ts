import type { ProjectCreateInput, ProjectDetail } from '../../../../contract/projects.ts'
import { createProject as endpoint } from '../../../../contract/projectEndpoints.ts'
import { call } from '../../../api/call.ts'

/** POST api/projects: the wizard's one save (project, queues, pins, centers in one transaction). */
export function createProject(input: ProjectCreateInput): Promise<ProjectDetail> {
  return call(endpoint, input)
}
