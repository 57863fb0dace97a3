import { describe, expect, it } from 'vitest'
import type { FullPlan } from '../../../contract/randomization.ts'
import { formOf, inputOf } from '../../../src/features/projects/randomizationForm.ts'

/** The config tab's form: what it sends and which problems it shows before sending. */
const saved: FullPlan = {
  access: 'full',
  method: 'stratified',
  groups: [
    { id: 1, code: 'A', name: 'Drug', ratio: 1 },
    { id: 2, code: 'P', name: 'Placebo', ratio: 2 },
  ],
  blockSizes: [3, 6],
  strataByCenter: true,
  factors: [{ indicatorId: 9, code: 'sex', nameZh: '性别', nameEn: 'Sex', choices: [{ code: '1', labelZh: '男', labelEn: 'Male' }] }],
  seed: 'abc',
  listSize: 30,
  generatedAt: null,
  strata: [],
  allocated: 0,
  saved: true,
}

describe('randomization form', () => {
  it('sends back the saved plan unchanged', () => {
    expect(inputOf(formOf(saved))).toEqual({
      input: {
        method: 'stratified',
        groups: [
          { code: 'A', name: 'Drug', ratio: 1 },
          { code: 'P', name: 'Placebo', ratio: 2 },
        ],
        blockSizes: [3, 6],
        strataByCenter: true,
        factorIds: [9],
        seed: 'abc',
        listSize: 30,
      },
      problems: [],
    })
  })

  it('starts a new plan with two 1:1 groups that still need names', () => {
    const form = formOf({ ...saved, method: 'simple', groups: [], blockSizes: [], factors: [], listSize: null })
    expect(form.groups.map((g) => [g.code, g.ratio])).toEqual([
      ['A', '1'],
      ['B', '1'],
    ])
    expect(inputOf(form).problems[0]).toEqual({ key: 'validatorMsg.pleaseInput', params: ['randomization.groupName'] })
  })

  it('reads block sizes typed with commas or spaces, and refuses what is not a whole number', () => {
    expect(inputOf({ ...formOf(saved), blockSizes: '3，6  9' }).input.blockSizes).toEqual([3, 6, 9])
    expect(inputOf({ ...formOf(saved), blockSizes: '3, x' }).problems[0]?.key).toBe('randomization.rule.blockSizesText')
    expect(inputOf({ ...formOf(saved), blockSizes: '4' }).problems).toEqual([{ key: 'randomization.rule.blockMultiple', params: [4, 3] }])
  })

  it('drops what the method does not use, and shows the shared rules', () => {
    const none = inputOf({ ...formOf(saved), method: 'none' })
    expect(none.input).toMatchObject({ groups: [], blockSizes: [], factorIds: [], strataByCenter: false })
    expect(none.problems).toEqual([])
    const one = inputOf({ ...formOf(saved), method: 'simple', groups: [{ code: 'A', name: 'Drug', ratio: '0' }] })
    expect(one.input.blockSizes).toEqual([])
    expect(one.problems.map((p) => p.key)).toEqual(['randomization.rule.twoGroups', 'randomization.rule.ratio'])
  })

  it('refuses a ratio that is not a whole number from 1 to 20 by its group, before the server does', () => {
    const form = formOf(saved)
    for (const ratio of ['1.5', '21']) {
      const groups = [form.groups[0]!, { ...form.groups[1]!, ratio }]
      expect(inputOf({ ...form, method: 'simple', groups }).problems).toEqual([{ key: 'randomization.rule.ratio', params: ['P', 20] }])
    }
  })

  it('asks for an emptied ratio by its group, once', () => {
    const form = formOf(saved)
    const emptied = { ...form, groups: [form.groups[0]!, { ...form.groups[1]!, ratio: '' }] }
    // Not 'at least 1' as well, nor of block sizes measured by a sum it is missing from.
    expect(inputOf({ ...emptied, blockSizes: '4' }).problems).toEqual([{ key: 'randomization.ratioRequired', params: ['P'] }])
  })

  it('reads the block sizes typed whatever else is still missing', () => {
    const form = formOf(saved)
    const unnamed = { ...form, groups: [form.groups[0]!, { ...form.groups[1]!, name: '' }] }
    expect(inputOf(unnamed).input.blockSizes).toEqual([3, 6])
    expect(inputOf(unnamed).problems).toEqual([{ key: 'validatorMsg.pleaseInput', params: ['randomization.groupName'] }])
  })
})
