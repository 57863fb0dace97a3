import { describe, expect, it } from 'vitest'
import { passwordProblem } from '../../contract/password.ts'

describe('passwordProblem (SPEC §5)', () => {
  it('accepts letters and digits with one of each, 6 or more', () => {
    expect(passwordProblem('abc123')).toBeNull()
  })
})
