import { describe, expect, it } from 'vitest'
import { centerProblem, messageText, validateBase, validateCenter, validateQueues } from '../../../src/features/projects/setupForms.ts'
import { translate } from '../../../src/i18n/index.ts'
import { emptyBase, emptyQueue, type BaseForm } from '../../../src/state/projectDraft.ts'

const say = (lang: 'zh' | 'en') => (key: string, params?: (string | number)[]) => translate(lang, key, params)

const filled: BaseForm = {
  ...emptyBase(),
  type: 'prospective',
  name: 'Lung study',
  number: 'LS-1',
  groupType: 'group',
  plannedQuantity: '120',
  plannedGroups: '2',
}

describe('the wizard checks, with the contract schemas', () => {
  it('names every missing base field in the user language', () => {
    const { input, errors } = validateBase(emptyBase())
    expect(input).toBeNull()
    expect(Object.keys(errors).sort()).toEqual(['groupType', 'name', 'number', 'plannedGroups', 'plannedQuantity', 'type'])
    expect(messageText(say('en'), errors.name!)).toBe('Please input Project name')
    expect(messageText(say('zh'), errors.type!)).toBe('请选择项目类型')
    expect(messageText(say('en'), errors.plannedQuantity!)).toBe('Please input Planned entry quantity')
  })

  it('refuses a planned quantity of 0, a negative or a fraction, and too long a name', () => {
    expect(messageText(say('en'), validateBase({ ...filled, plannedQuantity: '0' }).errors.plannedQuantity!)).toBe(
      'Planned entry quantity is at least 1',
    )
    expect(messageText(say('zh'), validateBase({ ...filled, plannedQuantity: '-3' }).errors.plannedQuantity!)).toBe('计划入组数量至少为 1')
    expect(messageText(say('en'), validateBase({ ...filled, plannedQuantity: '2.5' }).errors.plannedQuantity!)).toBe(
      'Planned entry quantity must be a whole number',
    )
    expect(messageText(say('en'), validateBase({ ...filled, plannedQuantity: 'many' }).errors.plannedQuantity!)).toBe(
      'Planned entry quantity must be a whole number',
    )
    expect(messageText(say('en'), validateBase({ ...filled, name: 'x'.repeat(101) }).errors.name!)).toBe(
      'Project name is at most 100 characters',
    )
  })

  it('applies baseRules between fields, as the server does', () => {
    const oneArm = validateBase({ ...filled, groupType: 'single', plannedGroups: '2', randomMethod: 'simple' })
    expect(oneArm.input).toBeNull()
    expect(messageText(say('en'), oneArm.errors.plannedGroups!)).toBe('A one-armed test plans exactly 1 group')
    expect(messageText(say('zh'), oneArm.errors.randomMethod!)).toBe('单臂试验不能设置随机方法')
    expect(messageText(say('en'), validateBase({ ...filled, plannedGroups: '1' }).errors.plannedGroups!)).toBe(
      'A group test plans at least 2 groups',
    )
  })

  it('passes a complete base form as the contract input', () => {
    const { input, errors } = validateBase(filled)
    expect(errors).toEqual({})
    expect(input).toMatchObject({ type: 'prospective', plannedQuantity: 120, plannedGroups: 2, testStage: null, blinded: 'open' })
  })

  it('checks queues: name and key required, the key pattern, no key twice (any case)', () => {
    const empty = validateQueues([emptyQueue()])
    expect(empty.input).toBeNull()
    expect(messageText(say('en'), empty.errors[0]!.name!)).toBe('Please input Queue name')
    const bad = validateQueues([
      { ...emptyQueue(), name: 'A', key: '1a' },
      { ...emptyQueue(), name: 'B', key: 'arm' },
      { ...emptyQueue(), name: 'C', key: 'ARM' },
    ])
    expect(messageText(say('en'), bad.errors[0]!.key!)).toMatch(/starts with a letter/)
    expect(bad.errors[1]).toEqual({})
    expect(messageText(say('zh'), bad.errors[2]!.key!)).toBe('队列标识 ARM 重复')
    const ok = validateQueues([{ ...emptyQueue(), name: ' A ', key: 'a' }])
    expect(ok.input).toEqual([{ name: 'A', key: 'a', entryCondition: '', excludeCondition: '' }])
  })

  it('checks a new center and the number of centers of a single-center project', () => {
    const c = validateCenter({ code: '', nameZh: '', nameEn: '', region: '' })
    expect(messageText(say('en'), c.errors.code!)).toBe('Please input Center code')
    expect(validateCenter({ code: 'BJ01', nameZh: '北京', nameEn: '', region: '' }).input).not.toBeNull()
    expect(centerProblem('single', 0)?.key).toBe('projectSetup.msg.pickCenter')
    expect(centerProblem('single', 2)?.key).toBe('projectSetup.msg.oneCenter')
    expect(centerProblem('multi', 0)).toBeNull()
  })
})
