import type { ProjectDetail } from '../../../contract/projects.ts'
import { useApi, type Loaded } from '../../api/query.ts'
import { getProject } from './api/getProject.ts'

/** One project's detail under the 'projects' resource: any project command's `invalidate('projects')` reloads it. */
export function useProject(id: number): Loaded<ProjectDetail> {
  return useApi(['projects', 'detail', id], (signal) => getProject(id, { signal }))
}
