import type { FormPin, ProjectDetail } from '../../../../contract/projects.ts'
import { setProjectForms as endpoint } from '../../../../contract/projectEndpoints.ts'
import { call } from '../../../api/call.ts'

/** PUT api/projects/:id/forms: the pins in order; an existing pin keeps its version. */
export function setProjectForms(id: number, forms: FormPin[]): Promise<ProjectDetail> {
  return call(endpoint, { id, forms })
}
