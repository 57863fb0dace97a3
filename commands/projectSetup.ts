/**
 * Project setup commands (issue 9, the create wizard and the edit tabs): add a queue, add, edit and
 * delete a center of the directory (inline where centers are picked), upgrade a pinned form, delete a queue, save the current tab,
 * clear the wizard's draft, and the wizard's next / previous step. The wizard and the edit page
 * in the focused pane are reached through their capabilities; the server through typed endpoints.
 */
import { z } from 'zod'
import * as api from '../contract/projectEndpoints.ts'
import { capability, dialog, type CommandContext } from './context.ts'
import { defineCommand, type AnyCommand } from './define.ts'

/** What the create wizard (multi-add) in the focused pane offers. */
export interface WizardActions {
  /** The active step, 0-based (SPEC activeIndex). */
  step: number
  steps: number
  /** Checks the active step and moves on; on the last step saves the project. */
  next(): Promise<void>
  previous(): void
  /** Adds an empty queue (on the queue step) and puts the focus on its name. */
  addQueue(): void
  /** Empties the draft, in memory and in storage. */
  clear(): void
}
export const projectWizard = capability<WizardActions>('projects.wizard')

/** What the edit page (multi-edit) in the focused pane offers. */
export interface EditorActions {
  projectId: number
  tab: string
  /** Whether the current tab has something of its own to save (member and config save themselves). */
  canSave: boolean
  /** Checks and saves the current tab; rejects when the server refuses. */
  saveTab(): Promise<void>
  /** Shows the queue tab with a new, unsaved queue, its name focused. */
  addQueue(): void
  /** False for a role limited to chosen queues: a new queue would lie outside it (the server refuses). */
  mayAddQueue: boolean
}
export const projectEditor = capability<EditorActions>('projects.editor')

/**
 * The inline center dialog of the wizard or the edit page at `path`: without `centerId` a new
 * center (it joins the selection), with it that directory entry's edit.
 */
export const centerDialog = dialog<{ path: string; centerId?: number }>('projects.centerDialog')

const wizardOf = (ctx: CommandContext) => ctx.focus?.use(projectWizard)
const editorOf = (ctx: CommandContext) => ctx.focus?.use(projectEditor)

export const addQueue = defineCommand({
  id: 'projectSetup.addQueue',
  title: 'projectSetup.command.addQueue',
  section: 'project',
  keywords: ['queue', 'cohort', 'add', '队列', '添加'],
  hotkey: 'alt+shift+k',
  when: (ctx) => wizardOf(ctx) !== undefined || editorOf(ctx) !== undefined,
  enabled: (ctx) => wizardOf(ctx) !== undefined || editorOf(ctx)?.mayAddQueue === true,
  run: (ctx) => {
    const w = wizardOf(ctx)
    if (w) w.addQueue()
    else editorOf(ctx)?.addQueue()
  },
})

/** The center directory's "new center", inline where centers are picked. */
export const addCenter = defineCommand({
  id: 'projectSetup.addCenter',
  title: 'projectSetup.command.addCenter',
  section: 'project',
  keywords: ['center', 'centre', 'site', 'hospital', 'new', '中心', '新建'],
  hotkey: 'alt+shift+l',
  // Where centers are picked: the wizard's center step, the edit page's center tab.
  when: (ctx) => {
    const w = wizardOf(ctx)
    const onCenters = w ? w.step === w.steps - 1 : editorOf(ctx)?.tab === 'center'
    return onCenters && (ctx.can('project.create') || ctx.can('project.edit'))
  },
  run: (ctx) => {
    if (ctx.focus) ctx.ui.open(centerDialog, { path: ctx.focus.path })
  },
})

const centerId = z.object({ centerId: z.number().int().positive() })

/** Edits a directory entry in the center dialog of the focused view; as the server's center.update allows. */
export const editCenter = defineCommand({
  id: 'projectSetup.editCenter',
  title: 'projectSetup.command.editCenter',
  section: 'project',
  args: centerId,
  when: (ctx) => ctx.focus !== null && (ctx.can('project.edit') || ctx.can('organization.edit')),
  run: (ctx, args) => {
    if (ctx.focus) ctx.ui.open(centerDialog, { path: ctx.focus.path, centerId: args.centerId })
  },
})

/** Confirmed; the server refuses while a project uses the center, and its message is shown. As center.delete allows. */
export const deleteCenter = defineCommand({
  id: 'projectSetup.deleteCenter',
  title: 'projectSetup.command.deleteCenter',
  section: 'project',
  args: centerId.extend({ name: z.string() }),
  when: (ctx) => ctx.can('project.delete') || ctx.can('organization.delete'),
  run: async (ctx, args) => {
    const yes = await ctx.ui.confirm(ctx.t('projectSetup.center.deleteConfirm', [args.name]), ctx.t('deletion.irreversible'))
    if (!yes) return
    await ctx.api.call(api.deleteCenter, { id: args.centerId })
    ctx.invalidate('centers')
    ctx.ui.toast(ctx.t('projectSetup.center.deleted', [args.name]), 'success')
  },
})

/** Explicit and confirmed: a pinned CRF or question group moves to a newer published version (logged by the server). */
export const upgradeForm = defineCommand({
  id: 'projectSetup.upgradeForm',
  title: 'projectSetup.command.upgradeForm',
  section: 'project',
  permission: 'project.edit',
  keywords: ['upgrade', 'version', 'crf', '升级', '版本'],
  args: z.object({
    id: z.number().int().positive(),
    templateId: z.number().int().positive(),
    versionId: z.number().int().positive(),
    name: z.string(),
    from: z.number().int(),
    to: z.number().int(),
  }),
  run: async (ctx, args) => {
    const yes = await ctx.ui.confirm(
      ctx.t('projectSetup.index.upgradeConfirm', [args.name, args.from, args.to]),
      ctx.t('projectSetup.index.upgradeDetail'),
    )
    if (!yes) return
    await ctx.api.call(api.upgradeProjectForm, { id: args.id, templateId: args.templateId, versionId: args.versionId })
    ctx.invalidate('projects')
    ctx.ui.toast(ctx.t('projectSetup.index.upgraded', [args.name, args.to]), 'success')
  },
})

/** SPEC §8: refused while research objects are in the queue; the server's message is shown. */
export const deleteQueue = defineCommand({
  id: 'projectSetup.deleteQueue',
  title: 'projectSetup.command.deleteQueue',
  section: 'project',
  permission: 'project.edit',
  args: z.object({ id: z.number().int().positive(), queueId: z.number().int().positive(), name: z.string() }),
  run: async (ctx, args) => {
    const yes = await ctx.ui.confirm(ctx.t('projectSetup.queue.deleteConfirm', [args.name]), ctx.t('deletion.irreversible'))
    if (!yes) return
    await ctx.api.call(api.deleteQueue, { id: args.id, queueId: args.queueId })
    ctx.invalidate('projects')
    ctx.ui.toast(ctx.t('projectSetup.queue.deleted'), 'success')
  },
})

export const saveTab = defineCommand({
  id: 'projectSetup.saveTab',
  title: 'projectSetup.command.saveTab',
  section: 'project',
  permission: 'project.edit',
  keywords: ['save', 'project', '保存', '项目'],
  hotkey: 'alt+shift+enter',
  when: (ctx) => editorOf(ctx) !== undefined,
  enabled: (ctx) => editorOf(ctx)?.canSave ?? false,
  run: async (ctx) => {
    await editorOf(ctx)?.saveTab()
  },
})

export const clearDraft = defineCommand({
  id: 'projectSetup.clearDraft',
  title: 'projectSetup.command.clearDraft',
  section: 'project',
  keywords: ['clear', 'draft', 'reset', 'wizard', '清除', '草稿'],
  when: (ctx) => wizardOf(ctx) !== undefined,
  run: async (ctx) => {
    const yes = await ctx.ui.confirm(ctx.t('projectSetup.draft.clearConfirm'), ctx.t('projectSetup.draft.clearDetail'))
    if (!yes) return
    wizardOf(ctx)?.clear()
    ctx.ui.toast(ctx.t('projectSetup.draft.cleared'), 'success')
  },
})

export const wizardNext = defineCommand({
  id: 'projectSetup.wizardNext',
  title: 'projectSetup.command.wizardNext',
  section: 'project',
  permission: 'project.create',
  keywords: ['next', 'step', 'wizard', '下一步', '向导'],
  hotkey: 'alt+pagedown',
  when: (ctx) => wizardOf(ctx) !== undefined,
  run: async (ctx) => {
    await wizardOf(ctx)?.next()
  },
})

export const wizardPrevious = defineCommand({
  id: 'projectSetup.wizardPrevious',
  title: 'projectSetup.command.wizardPrevious',
  section: 'project',
  keywords: ['previous', 'back', 'step', 'wizard', '上一步', '向导'],
  hotkey: 'alt+pageup',
  when: (ctx) => wizardOf(ctx) !== undefined,
  enabled: (ctx) => (wizardOf(ctx)?.step ?? 0) > 0,
  run: (ctx) => wizardOf(ctx)?.previous(),
})

export const projectSetupCommands: readonly AnyCommand[] = [
  addQueue,
  addCenter,
  editCenter,
  deleteCenter,
  upgradeForm,
  deleteQueue,
  saveTab,
  clearDraft,
  wizardNext,
  wizardPrevious,
]
