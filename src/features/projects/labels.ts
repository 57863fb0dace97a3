import type { Intent } from '@blueprintjs/core'
import type { ProjectStatus } from '../../../contract/projects.ts'

/** How a status tag is coloured: a draft is plain, an audit waits, an active project runs. */
export function statusIntent(status: ProjectStatus): Intent {
  switch (status) {
    case 'draft':
      return 'none'
    case 'auditing':
      return 'warning'
    case 'active':
      return 'success'
    case 'closed':
      return 'danger'
  }
}

/** SPEC §9: the progress colour changes at 30, 70 and 100 percent of the planned quantity. */
export function enrolmentIntent(ratio: number): Intent {
  if (ratio >= 1) return 'success'
  if (ratio >= 0.7) return 'primary'
  if (ratio >= 0.3) return 'warning'
  return 'none'
}

/**
 * The history's action label: an audit action such as 'project.queue.create' reads as the key
 * `queueCreate` (the part after 'project.', camel-cased).
 */
export function historyActionKey(action: string): string {
  const rest = action.startsWith('project.') ? action.slice('project.'.length) : action
  return `projects.history.actions.${rest.replace(/\.(\w)/g, (_, c: string) => c.toUpperCase())}`
}

/** The name the server gives the built-in manager role of every project (issue 9 convention). */
const managerRoleName = '项目管理员'

/**
 * A project role's name; the built-in manager role's in the reader's language. Lists name the
 * role by its name only, role lists also say which role is built in.
 */
export function roleLabel(role: string | { name: string; builtin: string | null }, t: (key: string) => string): string {
  const { name, builtin } = typeof role === 'string' ? { name: role, builtin: null } : role
  return builtin === 'manager' || name === managerRoleName ? t('projects.managerRole') : name
}

const isStatus = (v: unknown): v is ProjectStatus => v === 'draft' || v === 'auditing' || v === 'active' || v === 'closed'

/**
 * An audit row's detail (JSON written by the server) as a reader wants it: a transition as
 * 'Draft → In audit' with its reason, the fields a change touched, the name of what was added or
 * changed; anything else as written.
 */
export function historyDetail(detail: string | null, t: (key: string) => string): string {
  if (!detail) return ''
  let parsed: unknown
  try {
    parsed = JSON.parse(detail)
  } catch {
    return detail
  }
  if (typeof parsed !== 'object' || parsed === null) return detail
  const d = parsed as Record<string, unknown>
  const parts: string[] = []
  if (isStatus(d.from) && isStatus(d.to)) parts.push(`${t(`projects.statuses.${d.from}`)} → ${t(`projects.statuses.${d.to}`)}`)
  if (typeof d.reason === 'string' && d.reason) parts.push(d.reason)
  if (Array.isArray(d.changed)) parts.push(d.changed.filter((c) => typeof c === 'string').join(', '))
  // What was added, changed or removed: a queue's, visit's or role's name; a member and their role.
  const after = typeof d.after === 'object' && d.after !== null ? (d.after as Record<string, unknown>) : {}
  const name = typeof d.name === 'string' ? d.name : typeof after.name === 'string' ? after.name : ''
  if (name) parts.push(name)
  if (typeof d.roleName === 'string') parts.push(d.roleName)
  return parts.length > 0 ? parts.join(' · ') : detail
}
