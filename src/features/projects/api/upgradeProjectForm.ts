import type { ProjectDetail } from '../../../../contract/projects.ts'
import { upgradeProjectForm as endpoint } from '../../../../contract/projectEndpoints.ts'
import { call } from '../../../api/call.ts'

/** POST api/projects/:id/forms/:templateId/upgrade (logged). */
export function upgradeProjectForm(id: number, templateId: number, versionId: number): Promise<ProjectDetail> {
  return call(endpoint, { id, templateId, versionId })
}
