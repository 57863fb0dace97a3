import { describe, expect, it } from 'vitest'
import type { Permission } from '../../contract/permissions.ts'
import type { Actor } from '../../server/services/actor.ts'
import { actions, authorize, can, listScope, resourceTypeOf, resourceTypes } from '../../server/services/policy.ts'
import { ServiceError } from '../../server/services/errors.ts'

const at = '2026-01-01T00:00:00.000Z'
const actor = (id = 7, grants: { superuser?: boolean; permissions?: Permission[]; mustChange?: boolean } = { superuser: true }): Actor => ({
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
  memberships: new Map(),
})

describe('policy', () => {
  it('refuses an action it has no rule for', () => {
    for (const unknown of ['indicator.destroyAll', 'project.read', '', 'constructor', 'toString', '__proto__']) {
      expect(can(actor(), unknown), unknown).toBe(false)
      expect(() => authorize(actor(), unknown)).toThrow(ServiceError)
    }
  })

  it('refuses every action to a caller who is not signed in', () => {
    for (const a of actions) expect(can(null, a), a).toBe(false)
    expect(() => authorize(null, 'indicator.read')).toThrow(expect.objectContaining({ status: 403, key: 'error.forbidden' }))
  })

  it('lets a system administrator do every known action', () => {
    for (const a of actions) expect(can(actor(), a), a).toBe(true)
  })

  it('lets a user without roles do nothing but read and change their own account', () => {
    const none = actor(7, {})
    expect(actions.filter((a) => can(none, a))).toEqual(['account.read', 'account.logout', 'account.changePassword'])
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
})
