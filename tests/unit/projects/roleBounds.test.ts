import { describe, expect, it } from 'vitest'
import { projectAuthorities, type MembershipView } from '../../../contract/projects.ts'
import { blankRole, roleBoundsOf } from '../../../src/features/projects/roleBounds.ts'

/** The role dialog offers what the server would accept from this granter (server/services/projectRoleBounds.ts). */

const manager: MembershipView = {
  roleId: 1,
  roleName: 'PM',
  authorities: [...projectAuthorities],
  blinded: false,
  queueIds: null,
  centerIds: null,
}
const centerLead: MembershipView = {
  roleId: 2,
  roleName: 'C1 lead',
  authorities: ['manageMembers', 'enrol', 'enterData'],
  blinded: true,
  queueIds: null,
  centerIds: [11],
}

describe('roleBoundsOf', () => {
  it('bounds nothing for the system administrator (no membership) or a project manager', () => {
    for (const me of [null, manager]) {
      const b = roleBoundsOf(me)
      expect(b.narrowed).toBe(false)
      expect(projectAuthorities.every((a) => b.authority(a))).toBe(true)
      expect([b.unblinded, b.allQueues, b.allCenters, b.queue(5), b.center(12)]).toEqual([true, true, true, true, true])
    }
  })

  it('offers a narrower member only their own authorities, centers and a blinded role', () => {
    const b = roleBoundsOf(centerLead)
    expect(b.narrowed).toBe(true)
    expect(projectAuthorities.filter((a) => b.authority(a))).toEqual(['manageMembers', 'enrol', 'enterData'])
    expect(b.unblinded).toBe(false)
    expect([b.allQueues, b.queue(5)]).toEqual([true, true])
    expect([b.allCenters, b.center(11), b.center(12)]).toEqual([false, true, false])
  })

  it('covers a role wholly inside: a role may be given, and its members changed, only then', () => {
    const b = roleBoundsOf(centerLead)
    const inside = { authorities: ['enrol' as const], blinded: true, allQueues: true, queueIds: [], allCenters: false, centerIds: [11] }
    expect(b.covers(inside)).toBe(true)
    expect(b.covers({ ...inside, blinded: false })).toBe(false)
    expect(b.covers({ ...inside, authorities: ['enrol', 'unblind'] })).toBe(false)
    expect(b.covers({ ...inside, centerIds: [11, 12] })).toBe(false)
    expect(b.covers({ ...inside, allCenters: true, centerIds: [] })).toBe(false)
    expect(roleBoundsOf(manager).covers({ ...inside, allCenters: true, blinded: false, authorities: [...projectAuthorities] })).toBe(true)
  })

  it('starts a new role inside the bounds', () => {
    expect(blankRole(centerLead)).toMatchObject({ blinded: true, allQueues: true, allCenters: false, centerIds: [11] })
    expect(blankRole(null)).toMatchObject({ blinded: false, allQueues: true, allCenters: true, centerIds: [] })
  })
})
