import { describe, expect, it } from 'vitest'
import type { MembershipView } from '../../../contract/projects.ts'
import { editLimits } from '../../../src/features/projects/editLimits.ts'

/** The edit page leaves out what the server refuses a limited role (server/services/projectSetup.ts). */

const role = (queueIds: number[] | null, centerIds: number[] | null): MembershipView => ({
  roleId: 1,
  roleName: 'setup',
  authorities: ['configure'],
  blinded: false,
  queueIds,
  centerIds,
})

describe('edit limits of a project role', () => {
  it('a role for every queue and center (or no membership: a manager, an administrator) is not limited', () => {
    expect(editLimits(role(null, null))).toEqual({ addQueue: true, changeCenters: true })
    expect(editLimits(null)).toEqual({ addQueue: true, changeCenters: true })
  })

  it('chosen queues add no queue; chosen centers change no center list; each only its own', () => {
    expect(editLimits(role([3], null))).toEqual({ addQueue: false, changeCenters: true })
    expect(editLimits(role(null, [7]))).toEqual({ addQueue: true, changeCenters: false })
  })
})
