import type { ProjectDetail } from '../../../contract/projects.ts'

/** Replaced by its helper's work (issue 9); the edit page renders it on its tab. */
export default function MemberTab({ project }: { project: ProjectDetail }) {
  return <div data-project={project.id} />
}
