/**
 * Research projects, list and detail (issue 9 items 1, 3, 5, 9): new project, open project (the
 * palette finds it by name or number), open it to the side, switch the current project, the audit
 * flow (submit, pass, unpass with a reason, close), delete, and apply to join. A button passes the
 * project; from the palette a command acts on the project the focused detail view shows. The
 * server decides every rule again (status transitions, project authority, subjects).
 */
import { z } from 'zod'
import * as api from '../contract/projectEndpoints.ts'
import { projectEditTabs, projectLimits, projectScopes } from '../contract/projects.ts'
import { screenPath } from '../contract/screenPaths.ts'
import { dialog, type CommandContext } from './context.ts'
import { Refusal, defineCommand, type AnyCommand } from './define.ts'

/** The reason dialog of the detail page of project `id`: a reason is needed to unpass, optional to close. */
export const projectReasonDialog = dialog<{ id: number; action: 'unpass' | 'close' }>('projects.reason')

const id = z.number().int().positive()
const target = z.object({ id: id.optional() }).optional()
const projectScreens = ['multiList', 'singleList', 'multiDetail']

const detailPath = (projectId: number) => screenPath('multiDetail', { id: projectId })
/** Where the commands apply without a project given: the lists and the detail. */
const onProjectScreen = (ctx: CommandContext) => ctx.focus !== null && projectScreens.includes(ctx.focus.screen)

/** The project a command acts on: its argument, else the project the focused view shows. */
function projectTarget(ctx: CommandContext, given: number | undefined): number {
  if (given !== undefined) return given
  const record = ctx.focus?.record
  if (record?.kind === 'project') return record.id
  throw new Refusal(ctx.t('projects.pickFirst'))
}

const changed = (ctx: CommandContext) => ctx.invalidate('projects')

export const newProject = defineCommand({
  id: 'projects.new',
  title: 'projects.command.newProject',
  section: 'project',
  permission: 'project.create',
  keywords: ['new', 'create', 'project', 'study', 'wizard', '新建', '新增', '项目', '研究'],
  hotkey: 'alt+n',
  args: z.object({ scope: z.enum(projectScopes).optional() }).optional(),
  run: (ctx, args) => {
    // From the single-center list the wizard starts a single-center project; multi-center is the
    // wizard's default and stays out of the path, so there is one wizard tab for it.
    const scope = args?.scope ?? (ctx.focus?.screen === 'singleList' ? 'single' : 'multi')
    ctx.navigate(screenPath('multiAdd', { scope: scope === 'single' ? scope : undefined }))
  },
})

/** Without a project: the palette, searching projects by name or number (Ctrl/⌘+Enter opens to the side). */
export const openProject = defineCommand({
  id: 'projects.open',
  title: 'projects.command.openProject',
  section: 'project',
  permission: 'project.view',
  keywords: ['open', 'find', 'project', 'study', 'number', '打开', '查找', '项目', '编号'],
  hotkey: 'alt+p',
  args: z.object({ id, toSide: z.boolean().default(false) }).optional(),
  run: (ctx, args) => {
    if (!args) return ctx.ui.openPalette('projects')
    if (args.toSide) ctx.panes.openToSide(detailPath(args.id))
    else ctx.navigate(detailPath(args.id))
  },
})

/** Beside the focused pane, e.g. to compare two projects' settings: the given, the shown, else the current project. */
export const openProjectToSide = defineCommand({
  id: 'projects.openToSide',
  title: 'projects.command.openProjectToSide',
  section: 'project',
  permission: 'project.view',
  keywords: ['side', 'compare', 'project', '侧边', '对比', '比较', '项目'],
  args: target,
  run: (ctx, args) => {
    const record = ctx.focus?.record
    const chosen = args?.id ?? (record?.kind === 'project' ? record.id : ctx.currentProject.value?.id)
    if (chosen === undefined) return ctx.ui.openPalette('projects')
    ctx.panes.openToSide(detailPath(chosen))
  },
})

/** The edit tabs of the project (SPEC multi-edit): the given one, else the shown one. */
export const editProject = defineCommand({
  id: 'projects.edit',
  title: 'projects.command.editProject',
  section: 'project',
  permission: 'project.edit',
  keywords: ['edit', 'settings', 'project', '编辑', '设置', '项目'],
  args: z.object({ id: id.optional(), tab: z.enum(projectEditTabs).optional() }).optional(),
  when: onProjectScreen,
  run: (ctx, args) => ctx.navigate(screenPath('multiEdit', { id: projectTarget(ctx, args?.id), tab: args?.tab })),
})

/** Without a project: the palette, whose records switch instead of opening. */
export const switchProject = defineCommand({
  id: 'projects.switch',
  title: 'projects.command.switchProject',
  section: 'project',
  permission: 'project.view',
  keywords: ['switch', 'current', 'work', 'project', '切换', '当前', '项目'],
  hotkey: 'alt+j',
  args: z.object({ id, name: z.string(), number: z.string() }).optional(),
  run: (ctx, args) => {
    if (!args) return ctx.ui.openPalette('currentProject')
    ctx.currentProject.set(args)
    ctx.ui.toast(ctx.t('projects.current.switched', [args.name]), 'success')
  },
})

export const submitProject = defineCommand({
  id: 'projects.submit',
  title: 'projects.command.submit',
  section: 'project',
  permission: 'project.edit',
  keywords: ['submit', 'audit', 'review', '提交', '审核'],
  args: target,
  when: onProjectScreen,
  run: async (ctx, args) => {
    await ctx.api.call(api.submitProject, { id: projectTarget(ctx, args?.id) })
    ctx.ui.toast(ctx.t('message.operationSuccess'), 'success')
    changed(ctx)
  },
})

export const passProject = defineCommand({
  id: 'projects.pass',
  title: 'projects.command.pass',
  section: 'project',
  permission: 'project.approve',
  keywords: ['pass', 'approve', 'audit', '通过', '审核'],
  args: target,
  when: onProjectScreen,
  run: async (ctx, args) => {
    await ctx.api.call(api.passProject, { id: projectTarget(ctx, args?.id) })
    ctx.ui.toast(ctx.t('message.operationSuccess'), 'success')
    changed(ctx)
  },
})

const reasonArgs = z.object({ id: id.optional(), reason: z.string().max(projectLimits.reason).optional() }).optional()

/**
 * With a reason: the call. Without one: the project's detail with its reason dialog, whose
 * confirm runs this command again with the reason.
 */
function withReason(ctx: CommandContext, projectId: number, action: 'unpass' | 'close'): void {
  if (ctx.focus?.screen !== 'multiDetail' || ctx.focus.params.id !== projectId) ctx.navigate(detailPath(projectId))
  ctx.ui.open(projectReasonDialog, { id: projectId, action })
}

export const unpassProject = defineCommand({
  id: 'projects.unpass',
  title: 'projects.command.unpass',
  section: 'project',
  permission: 'project.approve',
  keywords: ['unpass', 'reject', 'refuse', 'audit', '不通过', '驳回', '审核'],
  args: reasonArgs,
  when: onProjectScreen,
  run: async (ctx, args) => {
    const projectId = projectTarget(ctx, args?.id)
    const reason = args?.reason?.trim()
    if (reason === undefined) return withReason(ctx, projectId, 'unpass')
    // SPEC §5 'required' rule: a blank reason is refused here with the field's message, nothing sent.
    if (reason === '') throw new Refusal(ctx.t('projects.reason.required'))
    await ctx.api.call(api.unpassProject, { id: projectId, reason })
    ctx.ui.toast(ctx.t('message.operationSuccess'), 'success')
    changed(ctx)
  },
})

export const closeProject = defineCommand({
  id: 'projects.close',
  title: 'projects.command.close',
  section: 'project',
  permission: 'project.edit',
  keywords: ['close', 'end', 'finish', 'project', '关闭', '结束', '项目'],
  args: reasonArgs,
  when: onProjectScreen,
  run: async (ctx, args) => {
    const projectId = projectTarget(ctx, args?.id)
    if (args?.reason === undefined) return withReason(ctx, projectId, 'close')
    await ctx.api.call(api.closeProject, { id: projectId, reason: args.reason.trim() })
    ctx.ui.toast(ctx.t('message.operationSuccess'), 'success')
    changed(ctx)
  },
})

/** SPEC §8 delete confirmation; refused by the server (409) once the project has research subjects. */
export const deleteProject = defineCommand({
  id: 'projects.delete',
  title: 'projects.command.delete',
  section: 'project',
  permission: 'project.delete',
  keywords: ['delete', 'remove', 'project', '删除', '项目'],
  args: target,
  when: onProjectScreen,
  run: async (ctx, args) => {
    const projectId = projectTarget(ctx, args?.id)
    if (!(await ctx.ui.confirm(ctx.t('deletion.confirm'), ctx.t('deletion.irreversible')))) return
    await ctx.api.call(api.deleteProject, { id: projectId })
    ctx.ui.toast(ctx.t('deletion.success'), 'success')
    if (ctx.currentProject.value?.id === projectId) ctx.currentProject.set(null)
    const detail = detailPath(projectId)
    if (ctx.panes.tabs.some((tab) => tab.path === detail)) ctx.panes.close(detail)
    changed(ctx)
  },
})

/** Without an application: the multi-apply screen (with the project chosen when given). */
export const applyToProject = defineCommand({
  id: 'projects.apply',
  title: 'projects.command.apply',
  section: 'project',
  permission: 'project.view',
  keywords: ['apply', 'join', 'application', 'project', '申请', '加入', '项目'],
  args: z
    .object({ id: id.optional(), roleId: id.nullable().default(null), reason: z.string().max(projectLimits.reason).optional() })
    .optional(),
  run: async (ctx, args) => {
    if (args?.reason === undefined) return ctx.navigate(screenPath('multiApply', { id: args?.id }))
    const projectId = projectTarget(ctx, args.id)
    const reason = args.reason.trim()
    if (reason === '') throw new Refusal(ctx.t('projects.apply.reasonRequired'))
    await ctx.api.call(api.applyToProject, { id: projectId, roleId: args.roleId, reason })
    ctx.ui.toast(ctx.t('projects.apply.pending'), 'success')
    changed(ctx)
  },
})

export const projectCommands: readonly AnyCommand[] = [
  newProject,
  openProject,
  openProjectToSide,
  editProject,
  switchProject,
  submitProject,
  passProject,
  unpassProject,
  closeProject,
  deleteProject,
  applyToProject,
]
