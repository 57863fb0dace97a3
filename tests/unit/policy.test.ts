import { describe, expect, it } from 'vitest'
import type { Permission } from '../../contract/permissions.ts'
import type { Actor, Membership } from '../../server/services/actor.ts'
import type { ProjectAuthority } from '../../contract/projects.ts'
import { actions, authorize, can, listScope, projectScope, resourceTypeOf, resourceTypes } from '../../server/services/policy.ts'
import { ServiceError } from '../../server/services/errors.ts'

const at = '2026-01-01T00:00:00.000Z'
type Grants = { superuser?: boolean; permissions?: Permission[]; mustChange?: boolean; memberships?: Membership[] }
const actor = (id = 7, grants: Grants = { superuser: true }): Actor => ({
  user: {
    id,
    name: 'Alice',
    image: '',
    description: '',
    department_id: null,
    career_id: null,
    mobile: '',
    email: '',
    status: 1,
    created_at: at,
    updated_at: at,
  },
  account: {
    id: id + 100,
    user_id: id,
    username: 'alice',
    password_hash: 'x',
    platform: 'web',
    status: 1,
    locked_until: null,
    last_login_at: null,
    last_login_ip: null,
    must_change_password: grants.mustChange ? 1 : 0,
    created_at: at,
    updated_at: at,
  },
  sessionId: 1,
  roles: [],
  superuser: grants.superuser ?? false,
  permissions: new Set(grants.permissions ?? []),
  screens: new Set(),
  memberships: new Map((grants.memberships ?? []).map((m) => [m.projectId, m])),
})

const member = (projectId: number, authorities: ProjectAuthority[], scope: Partial<Membership> = {}): Membership => ({
  projectId,
  roleId: projectId * 10,
  roleName: 'r',
  authorities: new Set(authorities),
  blinded: false,
  queueIds: null,
  centerIds: null,
  ...scope,
})

describe('policy', () => {
  it('refuses an action it has no rule for', () => {
    for (const unknown of ['indicator.destroyAll', 'project.destroy', '', 'constructor', 'toString', '__proto__']) {
      expect(can(actor(), unknown), unknown).toBe(false)
      expect(() => authorize(actor(), unknown)).toThrow(ServiceError)
    }
  })

  it('refuses every action to a caller who is not signed in', () => {
    for (const a of actions) expect(can(null, a), a).toBe(false)
    expect(() => authorize(null, 'indicator.read')).toThrow(expect.objectContaining({ status: 403, key: 'error.forbidden' }))
  })

  it('lets a system administrator do every known action', () => {
    // As the guard asks before any input is read; project actions then need the project's id.
    for (const a of actions) expect(can(actor(), a, { type: resourceTypeOf(a), id: 7, preflight: true }), a).toBe(true)
  })

  it('lets a user without roles do nothing but read and change their own account and avatar', () => {
    const none = actor(7, {})
    const allowed = (id?: number, preflight?: boolean) => actions.filter((a) => can(none, a, { type: resourceTypeOf(a), id, preflight }))
    expect(allowed()).toEqual(['account.read', 'account.logout', 'account.changePassword'])
    // The guard's first check asks about the caller's own record.
    expect(allowed(7, true)).toEqual(['account.read', 'account.logout', 'account.changePassword', 'user.avatar'])
  })

  it('grants an action through the permission its rule names, and no other', () => {
    const reader = actor(7, { permissions: ['dictionary.view'] })
    expect(can(reader, 'indicator.list')).toBe(true)
    expect(can(reader, 'indicator.read')).toBe(true)
    expect(can(reader, 'indicator.create')).toBe(false)
    expect(can(reader, 'template.list')).toBe(false)
    expect(can(reader, 'user.list')).toBe(false)
    const manager = actor(7, { permissions: ['user.manage'] })
    expect(can(manager, 'user.resetPassword')).toBe(true)
    expect(can(manager, 'role.list')).toBe(true)
    expect(can(manager, 'role.update')).toBe(false)
  })

  it('lets a user change their own avatar without the right to edit users', () => {
    expect(can(actor(7, {}), 'user.avatar', { type: 'user', id: 7 })).toBe(true)
    expect(can(actor(7, {}), 'user.avatar', { type: 'user', id: 8 })).toBe(false)
    expect(can(actor(7, { permissions: ['user.edit'] }), 'user.avatar', { type: 'user', id: 8 })).toBe(true)
  })

  it('refuses everything but the password change while an administrator-set password is unchanged', () => {
    const fresh = actor(7, { superuser: true, mustChange: true })
    expect(actions.filter((a) => can(fresh, a))).toEqual(['account.read', 'account.logout', 'account.changePassword'])
    expect(() => authorize(fresh, 'indicator.list')).toThrow(expect.objectContaining({ status: 403, key: 'auth.mustChangePassword' }))
  })

  it('limits account actions to one’s own account', () => {
    expect(can(actor(7), 'account.read', { type: 'account', id: 7 })).toBe(true)
    expect(can(actor(7), 'account.read', { type: 'account', id: 8 })).toBe(false)
    expect(can(actor(7), 'account.changePassword', { type: 'account', id: 8 })).toBe(false)
  })

  it('names every action after a resource type', () => {
    for (const a of actions) expect(resourceTypes).toContain(resourceTypeOf(a))
  })

  it('scopes a list to everything when permitted, to nothing otherwise', () => {
    expect(listScope(actor(), 'indicator.list')).toEqual({ kind: 'all' })
    expect(listScope(actor(), 'template.list')).toEqual({ kind: 'all' })
    expect(listScope(null, 'indicator.list')).toEqual({ kind: 'none' })
    expect(listScope(actor(7, {}), 'indicator.list')).toEqual({ kind: 'none' })
  })

  it('decides a project action on the system permission and the project role together', () => {
    const editor = actor(7, { permissions: ['project.view', 'project.edit'], memberships: [member(1, ['configure']), member(2, [])] })
    expect(can(editor, 'project.update', { type: 'project', id: 1 })).toBe(true)
    // A member without the authority, a non-member, and a call naming no project are refused.
    expect(can(editor, 'project.update', { type: 'project', id: 2 })).toBe(false)
    expect(can(editor, 'project.update', { type: 'project', id: 3 })).toBe(false)
    expect(can(editor, 'project.update', { type: 'project' })).toBe(false)
    // The authority without the system permission gives nothing.
    const noPermission = actor(7, { permissions: ['project.view'], memberships: [member(1, ['configure'])] })
    expect(can(noPermission, 'project.update', { type: 'project', id: 1 })).toBe(false)
    expect(can(noPermission, 'project.update', { type: 'project', id: 1, preflight: true })).toBe(false)
    expect(can(editor, 'project.read', { type: 'project', id: 2 })).toBe(true)
    expect(can(editor, 'project.read', { type: 'project', id: 3 })).toBe(false)
    expect(can(actor(), 'project.update', { type: 'project', id: 3 })).toBe(true)
  })

  it('lets auditors read and pass projects they are not members of', () => {
    const auditor = actor(7, { permissions: ['project.approve'] })
    expect(can(auditor, 'project.read', { type: 'project', id: 5 })).toBe(true)
    expect(can(auditor, 'project.approve', { type: 'project', id: 5 })).toBe(true)
    expect(can(auditor, 'project.update', { type: 'project', id: 5 })).toBe(false)
    expect(listScope(auditor, 'project.list')).toEqual({ kind: 'memberOf', userId: 7, statuses: ['auditing', 'active', 'closed'] })
  })

  it('scopes project lists to memberships, and a project’s rows to the role’s queues and centers', () => {
    const m = member(1, [], { queueIds: [11], centerIds: [21, 22] })
    const researcher = actor(7, { permissions: ['project.view'], memberships: [m] })
    expect(listScope(researcher, 'project.list')).toEqual({ kind: 'memberOf', userId: 7, statuses: [] })
    expect(listScope(actor(), 'project.list')).toEqual({ kind: 'all' })
    expect(projectScope(researcher, 'subject.centerList', 1)).toEqual({
      kind: 'project',
      projectId: 1,
      queueIds: [11],
      centerIds: [21, 22],
    })
    expect(projectScope(researcher, 'subject.centerList', 2)).toEqual({ kind: 'none' })
    expect(projectScope(actor(), 'subject.centerList', 2)).toEqual({ kind: 'project', projectId: 2, queueIds: null, centerIds: null })
  })
})
