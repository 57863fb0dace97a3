/**
 * Research subjects (issue 10): enrolment. "New research object" opens the enrolment dialog of
 * the project the screen shows (else the current project); the dialog runs the same command with
 * the answers, which enrols and opens the new subject's detail. The server decides every rule
 * again (queue and center grants, checklist, number, plan full, strata).
 */
import { z } from 'zod'
import { enrolInput, enrolSubject } from '../contract/subjects.ts'
import { screenPath } from '../contract/screenPaths.ts'
import { dialog, type CommandContext } from './context.ts'
import { Refusal, defineCommand, type AnyCommand } from './define.ts'

/** The enrolment dialog of project `studyId`; its host (src/features/subjects/EnrolDialog.tsx) is mounted once by the app. */
export const enrolDialog = dialog<{ studyId: number }>('subjects.enrol')

const id = z.number().int().positive()

/** The project: the given one, the one the focused screen names (studyId, or id on a project screen), else the current one. */
function studyTarget(ctx: CommandContext, given: number | undefined): number {
  if (given !== undefined) return given
  const params = ctx.focus?.params ?? {}
  if (typeof params.studyId === 'number') return params.studyId
  if (ctx.focus?.record?.kind === 'project') return ctx.focus.record.id
  const current = ctx.currentProject.value
  if (current) return current.id
  throw new Refusal(ctx.t('offline.enrol.noProject'))
}

export const newSubject = defineCommand({
  id: 'subjects.new',
  title: 'offline.command.newSubject',
  section: 'subject',
  permission: 'subject.create',
  keywords: ['new', 'enrol', 'enroll', 'subject', 'patient', 'research object', '新增', '入组', '研究对象', '患者', '受试者'],
  hotkey: 'alt+shift+e',
  args: z.object({ studyId: id.optional(), subject: enrolInput.optional() }).optional(),
  run: async (ctx, args) => {
    const studyId = studyTarget(ctx, args?.studyId)
    if (!args?.subject) return ctx.ui.open(enrolDialog, { studyId })
    const enrolled = await ctx.api.call(enrolSubject, { id: studyId, subject: args.subject })
    ctx.invalidate('subjects')
    // The project's enrolled count on its card and its progress.
    ctx.invalidate('projects')
    ctx.invalidate('followUp')
    ctx.ui.toast(
      enrolled.group
        ? ctx.t('offline.enrol.enrolledGroup', [enrolled.subjectNo, enrolled.group.name])
        : ctx.t('offline.enrol.enrolled', [enrolled.subjectNo]),
      'success',
    )
    ctx.navigate(screenPath('patientDetail', { studyId, id: enrolled.id }))
  },
})

export const subjectCommands: readonly AnyCommand[] = [newSubject]
