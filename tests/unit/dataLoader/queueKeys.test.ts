import { describe, expect, it } from 'vitest'
import { queueKeys } from '../../../server/services/dataLoader/upload.ts'

describe('queueKeys (a file names a queue by its key)', () => {
  it('reads a key in any case where no other queue differs from it only by case, else exactly', () => {
    const keys = queueKeys([
      { key: 'A', id: 1 },
      { key: 'Relapse', id: 2 },
      { key: 'b', id: 3 },
      { key: 'B', id: 4 },
    ])
    expect(keys.get('A')).toBe(1)
    expect(keys.get('a')).toBe(1)
    expect(keys.get('relapse')).toBe(2)
    expect(keys.get('b')).toBe(3)
    expect(keys.get('B')).toBe(4)
    expect(keys.size).toBe(6)
  })
})
