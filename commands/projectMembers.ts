import { z } from 'zod'
import * as api from '../contract/projectEndpoints.ts'
import { idValue } from '../contract/ids.ts'
import { projectRoleInput, reasonInput } from '../contract/projects.ts'
import { screenPath } from '../contract/screenPaths.ts'
import { dialog, type CommandContext, type DialogId } from './context.ts'
import { Refusal, defineCommand, type AnyCommand } from './define.ts'

/**
 * Members and project roles of one project (issue 9 item 4, the member tab) and the decisions on
 * applications to join (item 5). With their input each command writes at once; without, it opens
 * its dialog on the project's member tab. The project is the one named, else the focused one.
 */

export const addMemberDialog = dialog<{ projectId: number }>('projectMembers.addMember')
/** roleId null: a new role. */
export const roleDialog = dialog<{ projectId: number; roleId: number | null }>('projectMembers.role')
export const approveDialog = dialog<{ projectId: number; applicationId: number }>('projectMembers.approve')
export const refuseDialog = dialog<{ projectId: number; applicationId: number }>('projectMembers.refuse')

/** The project of the focused project screen, if any. */
function focusedProject(ctx: CommandContext): number | null {
  const f = ctx.focus
  if (!f || (f.screen !== 'multiEdit' && f.screen !== 'multiDetail')) return null
  return typeof f.params.id === 'number' ? f.params.id : null
}

function projectOf(ctx: CommandContext, id: number | undefined): number {
  const projectId = id ?? focusedProject(ctx)
  if (projectId === null) throw new Refusal(ctx.t('projectMembers.noProject'))
  return projectId
}

/** Shows the project's member tab (unless it is the focused pane already), then the dialog on it. */
function openOnTab<A>(ctx: CommandContext, projectId: number, which: DialogId<A>, args: A) {
  const f = ctx.focus
  if (!(f?.screen === 'multiEdit' && f.params.id === projectId && f.params.tab === 'member')) {
    ctx.navigate(screenPath('multiEdit', { id: projectId, tab: 'member' }))
  }
  ctx.ui.open(which, args)
}

/** Members, roles and applications live under the project: its detail and lists reload. */
const changed = (ctx: CommandContext) => ctx.invalidate('projects')

export const addMember = defineCommand({
  id: 'projectMembers.addMember',
  title: 'projectMembers.command.addMember',
  section: 'project',
  permission: 'project.manageMembers',
  keywords: ['member', 'user', 'add', 'project', '成员', '添加', '项目'],
  hotkey: 'alt+shift+m',
  args: z.object({ id: idValue.optional(), userId: idValue.optional(), roleId: idValue.optional() }).optional(),
  run: async (ctx, args) => {
    const projectId = projectOf(ctx, args?.id)
    if (args?.userId === undefined || args.roleId === undefined) return openOnTab(ctx, projectId, addMemberDialog, { projectId })
    const m = await ctx.api.call(api.addMember, { id: projectId, userId: args.userId, roleId: args.roleId })
    changed(ctx)
    ctx.ui.toast(ctx.t('projectMembers.added', [m.name, m.roleName]), 'success')
  },
})

export const changeMemberRole = defineCommand({
  id: 'projectMembers.changeMemberRole',
  title: 'projectMembers.command.changeMemberRole',
  section: 'project',
  permission: 'project.manageMembers',
  args: z.object({ id: idValue, memberId: idValue, roleId: idValue }),
  run: async (ctx, args) => {
    await ctx.api.call(api.changeMemberRole, args)
    changed(ctx)
    ctx.ui.toast(ctx.t('message.saveSuccess'), 'success')
  },
})

export const removeMember = defineCommand({
  id: 'projectMembers.removeMember',
  title: 'projectMembers.command.removeMember',
  section: 'project',
  permission: 'project.manageMembers',
  args: z.object({ id: idValue, memberId: idValue }),
  run: async (ctx, args) => {
    if (!(await ctx.ui.confirm(ctx.t('projectMembers.removeConfirm')))) return
    await ctx.api.call(api.removeMember, args)
    changed(ctx)
    ctx.ui.toast(ctx.t('deletion.success'), 'success')
  },
})

/** With the role's input saves it (roleId null creates); without, opens the role editor. */
export const editProjectRole = defineCommand({
  id: 'projectMembers.editRole',
  title: 'projectMembers.command.editRole',
  section: 'project',
  permission: 'project.manageMembers',
  keywords: ['role', 'authority', 'queue', 'center', 'permission', '角色', '权限', '队列', '中心'],
  args: z.object({ id: idValue.optional(), roleId: idValue.nullable().default(null), role: projectRoleInput.optional() }).optional(),
  run: async (ctx, args) => {
    const projectId = projectOf(ctx, args?.id)
    const roleId = args?.roleId ?? null
    if (!args?.role) return openOnTab(ctx, projectId, roleDialog, { projectId, roleId })
    if (roleId === null) await ctx.api.call(api.createProjectRole, { id: projectId, role: args.role })
    else await ctx.api.call(api.updateProjectRole, { id: projectId, roleId, role: args.role })
    changed(ctx)
    ctx.ui.toast(ctx.t('message.saveSuccess'), 'success')
  },
})

export const deleteProjectRole = defineCommand({
  id: 'projectMembers.deleteRole',
  title: 'projectMembers.command.deleteRole',
  section: 'project',
  permission: 'project.manageMembers',
  args: z.object({ id: idValue, roleId: idValue }),
  run: async (ctx, args) => {
    if (!(await ctx.ui.confirm(ctx.t('deletion.confirm'), ctx.t('deletion.irreversible')))) return
    await ctx.api.call(api.deleteProjectRole, args)
    changed(ctx)
    ctx.ui.toast(ctx.t('deletion.success'), 'success')
  },
})

/** With a role approves (the applicant becomes a member); without, asks for the role. */
export const approveApplication = defineCommand({
  id: 'projectMembers.approve',
  title: 'projectMembers.command.approve',
  section: 'project',
  permission: 'project.manageMembers',
  args: z.object({ id: idValue, applicationId: idValue, roleId: idValue.optional() }),
  run: async (ctx, args) => {
    if (args.roleId === undefined) return openOnTab(ctx, args.id, approveDialog, { projectId: args.id, applicationId: args.applicationId })
    const a = await ctx.api.call(api.approveApplication, { id: args.id, applicationId: args.applicationId, roleId: args.roleId })
    changed(ctx)
    ctx.ui.toast(ctx.t('projectMembers.approved', [a.name]), 'success')
  },
})

/** With a reason refuses; without, asks for it (a refusal needs one). */
export const refuseApplication = defineCommand({
  id: 'projectMembers.refuse',
  title: 'projectMembers.command.refuse',
  section: 'project',
  permission: 'project.manageMembers',
  args: z.object({ id: idValue, applicationId: idValue, reason: reasonInput.shape.reason.optional() }),
  run: async (ctx, args) => {
    if (args.reason === undefined) return openOnTab(ctx, args.id, refuseDialog, { projectId: args.id, applicationId: args.applicationId })
    const a = await ctx.api.call(api.refuseApplication, { id: args.id, applicationId: args.applicationId, reason: args.reason })
    changed(ctx)
    ctx.ui.toast(ctx.t('projectMembers.refused', [a.name]), 'success')
  },
})

export const projectMemberCommands: AnyCommand[] = [
  addMember,
  changeMemberRole,
  removeMember,
  editProjectRole,
  deleteProjectRole,
  approveApplication,
  refuseApplication,
]
