import { z } from 'zod'
import { idValue as id } from '../contract/ids.ts'
import { screenPath } from '../contract/screenPaths.ts'
import { saveDisplayFieldInfo, saveDisplayFieldInput } from '../contract/subjectList.ts'
import { capability, type CommandContext } from './context.ts'
import { defineCommand, type AnyCommand } from './define.ts'

/**
 * The research-object list (issue 10 item 1, 12): find a subject by number (the palette's
 * 'subjects' source, in the current project), open the list (of a given project or the current
 * one), choose its indicator columns, open a subject here or beside the focused pane.
 */

/** What the focused list offers while it has the focus. */
export interface SubjectListActions {
  chooseColumns(): void
}
export const subjectListView = capability<SubjectListActions>('subjects.list')

const subjectPath = (studyId: number, subjectId: number) => screenPath('patientDetail', { studyId, id: subjectId })

export const findSubject = defineCommand({
  id: 'subjectList.find',
  title: 'subjectList.command.find',
  section: 'subject',
  permission: 'subject.view',
  keywords: ['find', 'search', 'subject', 'patient', 'number', '查找', '搜索', '研究对象', '患者', '编号'],
  hotkey: 'alt+shift+f',
  run: (ctx) => {
    if (!ctx.currentProject.value) return ctx.ui.toast(ctx.t('subjectList.noProject'), 'warning')
    ctx.ui.openPalette('subjects')
  },
})

/** The list of the given project (a project's action menu), else of the current one. */
export const openSubjectList = defineCommand({
  id: 'subjectList.open',
  title: 'subjectList.command.open',
  section: 'subject',
  permission: 'subject.view',
  keywords: ['subjects', 'patients', 'list', 'research objects', '研究对象', '患者', '列表'],
  args: z.object({ studyId: id.optional() }).optional(),
  when: (ctx) => ctx.canOpen('patientList'),
  run: (ctx, args) => ctx.navigate(screenPath('patientList', args?.studyId === undefined ? {} : { studyId: args.studyId })),
})

const listOf = (ctx: CommandContext) => ctx.focus?.use(subjectListView)

export const chooseColumns = defineCommand({
  id: 'subjectList.chooseColumns',
  title: 'subjectList.command.chooseColumns',
  section: 'subject',
  permission: 'subject.view',
  keywords: ['columns', 'fields', 'indicators', '列', '显示字段', '指标'],
  when: (ctx) => listOf(ctx) !== undefined,
  run: (ctx) => listOf(ctx)?.chooseColumns(),
})

/** The chooser dialog's save: the caller's indicator columns of the project, in order; the lists reload. */
export const saveColumns = defineCommand({
  id: 'subjectList.saveColumns',
  title: 'subjectList.command.saveColumns',
  section: 'subject',
  permission: 'subject.view',
  args: saveDisplayFieldInput,
  run: async (ctx, args) => {
    await ctx.api.call(saveDisplayFieldInfo, args)
    ctx.invalidate('subjects')
    ctx.ui.toast(ctx.t('subjectList.columns.saved'), 'success')
  },
})

/** A row of the list (Enter, double click; Ctrl/⌘ to the side). */
export const openSubject = defineCommand({
  id: 'subjectList.openSubject',
  title: 'subjectList.command.openSubject',
  section: 'subject',
  permission: 'subject.view',
  args: z.object({ studyId: id, id, toSide: z.boolean().default(false) }),
  when: (ctx) => ctx.canOpen('patientDetail'),
  run: (ctx, args) =>
    args.toSide ? ctx.panes.openToSide(subjectPath(args.studyId, args.id)) : ctx.navigate(subjectPath(args.studyId, args.id)),
})

/** The given subject beside the focused pane; without one, the palette finds it and opens the chosen one beside (Enter too, as the name says). */
export const openSubjectToSide = defineCommand({
  id: 'subjectList.openSubjectToSide',
  title: 'subjectList.command.openSubjectToSide',
  section: 'subject',
  permission: 'subject.view',
  keywords: ['side', 'compare', 'subject', '侧边', '对比', '研究对象'],
  args: z.object({ studyId: id, id }).optional(),
  when: (ctx) => ctx.canOpen('patientDetail'),
  run: (ctx, args) => {
    if (args) return ctx.panes.openToSide(subjectPath(args.studyId, args.id))
    if (!ctx.currentProject.value) return ctx.ui.toast(ctx.t('subjectList.noProject'), 'warning')
    ctx.ui.openPalette('subjectsToSide')
  },
})

export const subjectListCommands: AnyCommand[] = [findSubject, openSubjectList, chooseColumns, saveColumns, openSubject, openSubjectToSide]
