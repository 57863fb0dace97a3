/** The randomization commands (issue 9 item 6) run through the registry with a test context. */
import { describe, expect, it } from 'vitest'
import { generateAllocation, saveRandomization, type FullPlan } from '../../contract/randomization.ts'
import { randomizationCommands } from '../../commands/randomization.ts'
import { execute, getCommand, isAvailable } from '../../commands/registry.ts'
import { translate } from '../../src/i18n/index.ts'
import { expectOnly, testContext } from './context.ts'

const run = (id: string, ctx: ReturnType<typeof testContext>, args?: unknown) => execute(getCommand(id), ctx, 'test', args)

const groups = [
  { code: 'A', name: 'Drug', ratio: 1 },
  { code: 'P', name: 'Placebo', ratio: 1 },
]
const fullPlan = (over: Partial<FullPlan> = {}): FullPlan => ({
  access: 'full',
  method: 'stratified',
  groups: groups.map((g, i) => ({ ...g, id: i + 1 })),
  blockSizes: [2, 4],
  strataByCenter: true,
  factors: [],
  seed: 'abc',
  listSize: null,
  generatedAt: '2026-11-26T10:00:00.000Z',
  strata: [
    { key: 'c1', centerId: 1, values: [], entries: 12, allocated: 0 },
    { key: 'c2', centerId: 2, values: [], entries: 10, allocated: 0 },
  ],
  allocated: 0,
  saved: true,
  ...over,
})

describe('randomization commands', () => {
  it('sit in the project section, need project.edit, and have a zh and an en title', () => {
    for (const c of randomizationCommands) {
      expect(c.section).toBe('project')
      expect(c.permission).toBe('project.edit')
      expect(translate('en', c.title)).not.toBe(translate('zh', c.title))
    }
  })

  it('are hidden and inert without project.edit', async () => {
    const ctx = testContext({ grants: ['project.view'] })
    expect(isAvailable(getCommand('project.saveRandomization'), ctx)).toBe(false)
    expect(await run('project.saveRandomization', ctx, { id: 1, plan: { method: 'none' } })).toMatchObject({
      ok: false,
      reason: 'unavailable',
    })
    expectOnly(ctx)
  })

  it('save refuses a plan with one group or a ratio of 0 in the user language, sending nothing', async () => {
    const zh = testContext()
    await run('project.saveRandomization', zh, { id: 1, plan: { method: 'simple', groups: groups.slice(0, 1) } })
    expect(zh.ui.toast).toHaveBeenCalledWith('随机分组至少需要 2 个组', 'danger')
    expect(zh.api.call).not.toHaveBeenCalled()
    const en = testContext({ lang: 'en' })
    await run('project.saveRandomization', en, { id: 1, plan: { method: 'simple', groups: [groups[0], { ...groups[1], ratio: 0 }] } })
    expect(en.ui.toast).toHaveBeenCalledWith('The allocation ratio of group P must be a whole number from 1 to 20', 'danger')
    expect(en.api.call).not.toHaveBeenCalled()
  })

  it('save sends the plan, reloads the project and says so', async () => {
    const ctx = testContext({ answer: () => fullPlan({ generatedAt: null, strata: [] }) })
    const plan = { method: 'stratified', groups, blockSizes: [2, 4], strataByCenter: true }
    const res = await run('project.saveRandomization', ctx, { id: 3, plan })
    expect(res.ok).toBe(true)
    expect(ctx.api.call).toHaveBeenCalledWith(saveRandomization, {
      id: 3,
      plan: { ...plan, factorIds: [], seed: '', listSize: null },
    })
    expect(ctx.invalidate).toHaveBeenCalledWith('projects')
    expect(ctx.ui.toast).toHaveBeenCalledWith('随机方案已保存', 'success')
  })

  it('generate makes the list and counts its entries; replacing one asks first, and no means nothing', async () => {
    const ctx = testContext({ lang: 'en', answer: () => fullPlan() })
    await run('project.generateAllocation', ctx, { id: 3 })
    expect(ctx.ui.confirm).not.toHaveBeenCalled()
    expect(ctx.api.call).toHaveBeenCalledWith(generateAllocation, { id: 3 })
    expect(ctx.ui.toast).toHaveBeenCalledWith('Allocation list generated: 22 entries', 'success')

    const no = testContext({ ui: { confirm: () => Promise.resolve(false) } })
    await run('project.generateAllocation', no, { id: 3, replace: true })
    expect(no.ui.confirm).toHaveBeenCalledWith('重新生成将替换现有随机表，确定继续吗？')
    expectOnly(no)

    const yes = testContext({ ui: { confirm: () => Promise.resolve(true) }, answer: () => fullPlan() })
    expect((await run('project.generateAllocation', yes, { id: 3, replace: true })).ok).toBe(true)
    expect(yes.invalidate).toHaveBeenCalledWith('projects')
  })
})
