import { projectScopes } from '../../contract/projects.ts'
import { listProjects } from '../features/projects/api/listProjects.ts'
import { currentProject, setCurrentProject } from '../state/currentProject.ts'
import { holds, session } from '../state/session.ts'

/**
 * A user who can see exactly one project works in it without choosing it first (a center's data
 * manager usually belongs to one study): looked up once the session is loaded while no current
 * project is kept. Two projects or more leave the choice to the user; a failed look-up changes nothing.
 */
export async function chooseOnlyProject(): Promise<void> {
  const userId = session.userId
  if (userId === null || currentProject.project || !holds('project.view')) return
  try {
    const pages = await Promise.all(projectScopes.map((scope) => listProjects({ scope, limit: 2 }, { toast: false })))
    const rows = pages.flatMap((p) => p.rows)
    const only = rows.length === 1 && pages.every((p) => p.next === null) ? rows[0]! : null
    // The user may have signed out, or chosen a project, while the lists were read.
    if (only && session.userId === userId && !currentProject.project) setCurrentProject(only)
  } catch {
    // No list, no guess: the screens keep offering the choice.
  }
}
