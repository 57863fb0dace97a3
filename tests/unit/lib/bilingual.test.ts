import { describe, expect, it } from 'vitest'
import { bilingual } from '../../../contract/bilingual.ts'

describe('bilingual', () => {
  it('shows the Chinese name in zh and the English one in en, falling back to the Chinese one when blank', () => {
    expect(bilingual('收缩压', 'Systolic', 'zh')).toBe('收缩压')
    expect(bilingual('收缩压', 'Systolic', 'en')).toBe('Systolic')
    expect(bilingual('收缩压', '', 'en')).toBe('收缩压')
    expect(bilingual('收缩压', '  ', 'en')).toBe('收缩压')
  })
})
