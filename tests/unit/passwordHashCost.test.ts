import { describe, expect, it } from 'vitest'
import { passwordHashCost } from '../../server/config.ts'
import { hashPassword, verifyPassword } from '../../server/services/passwordHash.ts'

describe('PASSWORD_HASH_COST', () => {
  it('is 15 unless set, from 10 to 17, and nothing else starts the server', () => {
    expect(passwordHashCost(undefined)).toBe(15)
    expect(passwordHashCost('')).toBe(15)
    expect(passwordHashCost('10')).toBe(10)
    expect(passwordHashCost('17')).toBe(17)
    for (const bad of ['9', '18', '12.5', 'high', '-15'])
      expect(() => passwordHashCost(bad)).toThrow(`PASSWORD_HASH_COST must be an integer from 10 to 17 (got ${bad})`)
  })

  it('hashes at the default cost where it is not set, and each hash keeps its own', async () => {
    // The unit tests leave it unset (the API tests set 10).
    expect(process.env.PASSWORD_HASH_COST).toBeUndefined()
    const stored = await hashPassword('abc123')
    expect(stored.split('$').slice(0, 4)).toEqual(['scrypt', '32768', '8', '1'])
    expect(await verifyPassword('abc123', stored)).toBe(true)
    const cheap = stored.replace('scrypt$32768$', 'scrypt$1024$')
    // Another cost is read from the hash: the same password no longer matches the stored key.
    expect(await verifyPassword('abc123', cheap)).toBe(false)
  })
})
