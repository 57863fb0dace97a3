import { describe, expect, it } from 'vitest'
import type { Actor } from '../../server/services/actor.ts'
import { actions, authorize, can, listScope, resourceTypeOf, resourceTypes } from '../../server/services/policy.ts'
import { ServiceError } from '../../server/services/errors.ts'

const actor = (id = 7): Actor => ({
  user: {
    id,
    username: 'alice',
    name: 'Alice',
    password_hash: 'x',
    status: 1,
    image: '',
    description: '',
    created_at: '2026-01-01T00:00:00.000Z',
    updated_at: '2026-01-01T00:00:00.000Z',
  },
  sessionId: 1,
  roles: [],
  memberships: [],
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

  it('lets a signed-in user do every known action today (SPEC §6: everyone is an administrator)', () => {
    for (const a of actions) expect(can(actor(), a), a).toBe(true)
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
  })
})
