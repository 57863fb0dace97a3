import type { ProjectPage } from '../../../../contract/projects.ts'
import { listProjects as endpoint } from '../../../../contract/projectEndpoints.ts'
import { call, type CallOptions } from '../../../api/call.ts'

export type ProjectQuery = Parameters<typeof endpoint.request>[0]

/** GET api/projects: one keyset page of the projects the caller may see (pass the last page's `next` as `after`). */
export function listProjects(query: ProjectQuery, options?: CallOptions<ProjectPage>): Promise<ProjectPage> {
  return call(endpoint, query, options)
}
