/**
 * Follow-up management and project progress (issue 10 item 10; SPEC §2 project action menu):
 * open either screen for a project, add, change and delete visits of its schedule, and open a
 * subject from the due and overdue lists. A button passes the project; from the palette a command
 * acts on the project the focused view shows, else the current project. The server decides every
 * rule again (pinned follow-up CRFs, unique names, visits with records).
 */
import { z } from 'zod'
import { createVisit, deleteVisit, updateVisit, visitInput } from '../contract/followUp.ts'
import { idValue } from '../contract/ids.ts'
import { screenPath } from '../contract/screenPaths.ts'
import { dialog, type CommandContext } from './context.ts'
import { Refusal, defineCommand, type AnyCommand } from './define.ts'

/** The visit dialog of the follow-up screen: a new visit, or the one named by `visitId`. */
export const visitDialog = dialog<{ projectId: number; visitId?: number }>('followUp.visit')

/** A subject's planned visits (dates, windows, states), shown over the follow-up screen. */
export const scheduleDialog = dialog<{ projectId: number; subjectId: number; subjectNo: string }>('followUp.schedule')

const followUpScreens = ['followUp', 'progress']
const onFollowUp = (ctx: CommandContext) => ctx.focus?.screen === 'followUp'

/** The project: the argument, the focused project or follow-up/progress screen, else the current project. */
function projectOf(ctx: CommandContext, given: number | undefined): number | undefined {
  if (given !== undefined) return given
  const focus = ctx.focus
  if (focus?.record?.kind === 'project') return focus.record.id
  if (focus && followUpScreens.includes(focus.screen) && typeof focus.params.id === 'number') return focus.params.id
  return ctx.currentProject.value?.id
}

function mustProject(ctx: CommandContext, given: number | undefined): number {
  const id = projectOf(ctx, given)
  if (id === undefined) throw new Refusal(ctx.t('followUp.pickProject'))
  return id
}

const target = z.object({ id: idValue.optional(), toSide: z.boolean().default(false) }).optional()

function opener(screen: 'followUp' | 'progress', id: string, title: string, keywords: readonly string[]) {
  return defineCommand({
    id,
    title,
    section: 'project',
    keywords,
    args: target,
    when: (ctx) => ctx.canOpen(screen),
    run: (ctx, args) => {
      const path = screenPath(screen, { id: mustProject(ctx, args?.id) })
      if (args?.toSide) ctx.panes.openToSide(path)
      else ctx.navigate(path)
    },
  })
}

export const openFollowUp = opener('followUp', 'followUp.open', 'followUp.command.open', [
  'follow-up',
  'visit',
  'due',
  'overdue',
  'schedule',
  '随访',
  '访视',
  '到期',
  '逾期',
])

export const openProgress = opener('progress', 'followUp.openProgress', 'followUp.command.openProgress', [
  'progress',
  'enrolment',
  'completion',
  'chart',
  '进度',
  '入组进度',
  '完成率',
])

const changed = (ctx: CommandContext) => ctx.invalidate('followUp')

/** Without a visit: the dialog; with one (the dialog's save), the call. */
export const newVisit = defineCommand({
  id: 'followUp.newVisit',
  title: 'followUp.command.newVisit',
  section: 'project',
  permission: 'project.edit',
  keywords: ['visit', 'schedule', 'add', '访视', '新增', '随访计划'],
  args: z.object({ id: idValue.optional(), visit: visitInput.optional() }).optional(),
  when: onFollowUp,
  run: async (ctx, args) => {
    const id = mustProject(ctx, args?.id)
    if (!args?.visit) return ctx.ui.open(visitDialog, { projectId: id })
    await ctx.api.call(createVisit, { id, visit: args.visit })
    changed(ctx)
    ctx.ui.toast(ctx.t('followUp.visitSaved', [args.visit.name]), 'success')
  },
})

export const editVisit = defineCommand({
  id: 'followUp.editVisit',
  title: 'followUp.command.editVisit',
  section: 'project',
  permission: 'project.edit',
  keywords: ['visit', 'schedule', 'edit', 'window', '访视', '编辑', '窗口'],
  args: z.object({ id: idValue.optional(), visitId: idValue, visit: visitInput.optional() }),
  run: async (ctx, args) => {
    const id = mustProject(ctx, args.id)
    if (!args.visit) return ctx.ui.open(visitDialog, { projectId: id, visitId: args.visitId })
    await ctx.api.call(updateVisit, { id, visitId: args.visitId, visit: args.visit })
    changed(ctx)
    ctx.ui.toast(ctx.t('followUp.visitSaved', [args.visit.name]), 'success')
  },
})

/** Asks first; the server refuses a visit with records. */
export const removeVisit = defineCommand({
  id: 'followUp.deleteVisit',
  title: 'followUp.command.deleteVisit',
  section: 'project',
  permission: 'project.edit',
  keywords: ['visit', 'delete', 'remove', '访视', '删除'],
  args: z.object({ id: idValue.optional(), visitId: idValue, name: z.string() }),
  run: async (ctx, args) => {
    const id = mustProject(ctx, args.id)
    if (!(await ctx.ui.confirm(ctx.t('followUp.deleteConfirm', [args.name])))) return
    await ctx.api.call(deleteVisit, { id, visitId: args.visitId })
    changed(ctx)
    ctx.ui.toast(ctx.t('followUp.visitDeleted', [args.name]), 'success')
  },
})

/** A subject of the due or overdue list, in its detail (to the side with Ctrl+Enter). */
export const openDueSubject = defineCommand({
  id: 'followUp.openSubject',
  title: 'followUp.command.openSubject',
  section: 'subject',
  permission: 'subject.view',
  keywords: ['subject', 'visit', 'open', '研究对象', '访视', '打开'],
  args: z.object({ studyId: idValue, id: idValue, toSide: z.boolean().default(false) }),
  when: (ctx) => ctx.canOpen('patientDetail'),
  run: (ctx, args) => {
    const path = screenPath('patientDetail', { studyId: args.studyId, id: args.id })
    if (args.toSide) ctx.panes.openToSide(path)
    else ctx.navigate(path)
  },
})

/** A subject's planned visits with their windows and states, from its row of the due or overdue list. */
export const showSchedule = defineCommand({
  id: 'followUp.showSchedule',
  title: 'followUp.command.showSchedule',
  section: 'subject',
  permission: 'subject.view',
  keywords: ['schedule', 'visit', 'planned', 'window', '访视', '计划日期', '窗口'],
  args: z.object({ studyId: idValue, id: idValue, subjectNo: z.string() }),
  run: (ctx, args) => ctx.ui.open(scheduleDialog, { projectId: args.studyId, subjectId: args.id, subjectNo: args.subjectNo }),
})

export const followUpCommands: AnyCommand[] = [openFollowUp, openProgress, newVisit, editVisit, removeVisit, openDueSubject, showSchedule]
