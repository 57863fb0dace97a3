import { z } from 'zod'
import { idValue } from '../contract/ids.ts'
import { generateAllocation, planInput, planRules, saveRandomization } from '../contract/randomization.ts'
import { defineCommand, type AnyCommand } from './define.ts'

/** A project's randomization plan and allocation list (config tab, issue 9 item 6). */

/** Saves the plan; a broken rule is said in the user's language and nothing is sent. */
export const saveRandomizationPlan = defineCommand({
  id: 'project.saveRandomization',
  title: 'randomization.command.save',
  section: 'project',
  permission: 'project.edit',
  keywords: ['randomization', 'random', 'plan', 'group', 'block', 'stratum', '随机', '分组', '区组', '分层'],
  args: z.object({ id: idValue, plan: planInput }),
  run: async (ctx, args) => {
    const broken = planRules(args.plan)[0]
    if (broken) return ctx.ui.toast(ctx.t(broken.key, broken.params), 'danger')
    await ctx.api.call(saveRandomization, args)
    ctx.invalidate('projects')
    ctx.ui.toast(ctx.t('randomization.saved'), 'success')
  },
})

/** Generates the list from the stored seed; replacing a list asks first. */
export const generateAllocationList = defineCommand({
  id: 'project.generateAllocation',
  title: 'randomization.command.generate',
  section: 'project',
  permission: 'project.edit',
  keywords: ['randomization', 'allocation', 'list', 'generate', 'seed', '随机表', '生成'],
  args: z.object({ id: idValue, replace: z.boolean().default(false) }),
  run: async (ctx, args) => {
    if (args.replace && !(await ctx.ui.confirm(ctx.t('randomization.generateConfirm')))) return
    const plan = await ctx.api.call(generateAllocation, { id: args.id })
    ctx.invalidate('projects')
    const entries = plan.access !== 'full' ? 0 : plan.strata.reduce((n, s) => n + s.entries, 0)
    ctx.ui.toast(ctx.t('randomization.generated', [entries]), 'success')
  },
})

export const randomizationCommands: AnyCommand[] = [saveRandomizationPlan, generateAllocationList]
