import { describe, expect, it } from 'vitest'
import { choiceLabel, hasChoice, indicatorProblems, nextChoiceCode } from '../../../contract/indicatorRules.ts'
import { indicatorInput } from '../../../contract/dictionary.ts'

describe('choices: a stored code, a label in each language', () => {
  it('shows the label of the reader’s language, the other one when it is blank', () => {
    const c = { code: '1', labelZh: '是', labelEn: 'Yes' }
    expect([choiceLabel(c, 'zh'), choiceLabel(c, 'en')]).toEqual(['是', 'Yes'])
    expect(choiceLabel({ ...c, labelEn: ' ' }, 'en')).toBe('是')
    expect(choiceLabel({ ...c, labelZh: '' }, 'zh')).toBe('Yes')
  })

  it('gives a new row the next free code', () => {
    expect(nextChoiceCode([])).toBe('1')
    expect(nextChoiceCode([{ code: '1', labelZh: 'a', labelEn: '' }])).toBe('2')
    expect(
      nextChoiceCode([
        { code: '2', labelZh: 'a', labelEn: '' },
        { code: '3', labelZh: 'b', labelEn: '' },
      ]),
    ).toBe('4')
    expect(hasChoice([{ code: '0', labelZh: 'a', labelEn: '' }], '0')).toBe(true)
    expect(hasChoice([{ code: '0', labelZh: 'a', labelEn: '' }], 'a')).toBe(false)
  })

  it('takes REDCap’s codes (0, -1, 99, yes, 1.5) and refuses codes with blanks, | or ,', () => {
    const field = (codes: string[]) =>
      indicatorInput.parse({
        code: 'F',
        nameZh: 'f',
        type: 'multiple',
        display: 'checkbox',
        options: codes.map((code) => ({ code, labelZh: `label ${code}` })),
      })
    expect(indicatorProblems(field(['0', '-1', '99', 'yes', '1.5']))).toEqual([])
    for (const bad of ['a b', 'a|b', '1,2', '', 'x'.repeat(33)]) {
      expect(
        indicatorProblems(field([bad])).map((p) => p.key),
        bad,
      ).toEqual(['choiceCode'])
    }
  })
})
