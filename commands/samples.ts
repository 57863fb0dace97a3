/**
 * Sample commands (issue 10 item 9, SPEC /sample/index): new sample, new aliquot, edit, change
 * status, delete, and open a sample CRF in the subject's detail. A command given the values
 * calls the server; without them it opens the sample dialog on the sample list. The sample a
 * command acts on is the one named in its arguments, else the row selected in the focused list.
 */
import { z } from 'zod'
import { screenPath } from '../contract/screenPaths.ts'
import * as api from '../contract/samples.ts'
import { idValue } from '../contract/ids.ts'
import { capability, dialog, type CommandContext } from './context.ts'
import { defineCommand, Refusal, type AnyCommand } from './define.ts'

/** What the sample list in the focused pane offers: its project and the selected row. */
export interface SampleListActions {
  studyId: number
  selected(): api.Sample | null
}
export const sampleList = capability<SampleListActions>('samples.list')

export type SampleDialogArgs =
  | { mode: 'create'; studyId: number; subjectNo?: string }
  | { mode: 'aliquot'; studyId: number; parent: api.Sample }
  | { mode: 'edit'; studyId: number; sample: api.Sample }
/** The sample list's create / aliquot / edit dialog. */
export const sampleDialog = dialog<SampleDialogArgs>('samples.dialog')
/** The sample list's status dialog (destroying asks for a reason). */
export const sampleStatusDialog = dialog<{ studyId: number; sample: api.Sample }>('samples.status')

const listOf = (ctx: CommandContext) => (ctx.focus?.screen === 'sampleList' ? ctx.focus.use(sampleList) : undefined)

/** The research object whose detail has the focus (what it published), with its project. */
function subjectOf(ctx: CommandContext): { studyId: number; subjectNo: string } | null {
  const focus = ctx.focus
  if (focus?.screen !== 'patientDetail' || focus.record?.kind !== 'subject' || typeof focus.params.studyId !== 'number') return null
  return { studyId: focus.params.studyId, subjectNo: focus.record.name }
}

/** The project a sample command works in: named, else the focused list's or subject's, else the current project. */
function studyOf(ctx: CommandContext, studyId?: number): number | null {
  return studyId ?? listOf(ctx)?.studyId ?? subjectOf(ctx)?.studyId ?? ctx.currentProject.value?.id ?? null
}

/** What new sample and new aliquot say without a project to work in, as the other project commands do. */
const noProject = (ctx: CommandContext) => ctx.ui.toast(ctx.t('subjectList.noProject'), 'warning')

/** Shows the sample list of the project when another screen has the focus, so its dialog shows. */
function onList(ctx: CommandContext, studyId: number) {
  if (listOf(ctx)?.studyId !== studyId) ctx.navigate(screenPath('sampleList', { studyId }))
}

/** The sample named by id (read from the server), else the selected row of the focused list. */
async function sampleOf(ctx: CommandContext, studyId: number, sampleId?: number): Promise<api.Sample | null> {
  if (sampleId !== undefined) return ctx.api.call(api.getSample, { studyId, sampleId })
  const selected = listOf(ctx)?.selected() ?? null
  if (!selected) ctx.ui.toast(ctx.t('samples.noSelection'), 'warning')
  return selected
}

const changed = (ctx: CommandContext) => ctx.invalidate('samples')

/**
 * Why the sample may not be aliquoted or change status, as an i18n key, by the rules the server
 * keeps (contract sampleMay); null when it may. The list's row buttons say it on hover.
 */
export function refusalOf(sample: Pick<api.Sample, 'status'>, action: 'aliquot' | 'status'): string | null {
  const may = api.sampleMay(sample.status)
  if (action === 'aliquot') return may.aliquot ? null : `samples.refused.aliquot.${sample.status}`
  return may.changeStatus ? null : 'samples.refused.status'
}

/** Stops a command that the sample's status refuses, in the words its row button shows. */
function stopIfRefused(ctx: CommandContext, sample: api.Sample, action: 'aliquot' | 'status') {
  const refused = refusalOf(sample, action)
  if (refused) throw new Refusal(ctx.t(refused))
}

/** The palette and the hotkeys act on the selected row: not offered where its status refuses. A button names its own. */
const selectedMay = (ctx: CommandContext, action: 'aliquot' | 'status') => {
  const selected = listOf(ctx)?.selected()
  return !selected || refusalOf(selected, action) === null
}

const target = z.object({ studyId: idValue.optional(), sampleId: idValue.optional() })

export const newSample = defineCommand({
  id: 'samples.new',
  title: 'samples.command.new',
  section: 'subject',
  permission: 'subject.edit',
  keywords: ['sample', 'specimen', 'biomaterial', 'new', '样本', '新建', '生物样本'],
  hotkey: 'alt+shift+j',
  args: z
    .object({
      studyId: idValue.optional(),
      /** The subject by id, or by its number as a person types it. */
      subjectId: idValue.optional(),
      subjectNo: z.string().trim().min(1).max(50).optional(),
      sample: api.sampleFields.optional(),
    })
    .optional(),
  run: async (ctx, args) => {
    const studyId = studyOf(ctx, args?.studyId)
    if (studyId === null) return noProject(ctx)
    if (args?.sample && (args.subjectId !== undefined || args.subjectNo !== undefined)) {
      const owner = args.subjectId !== undefined ? { subjectId: args.subjectId } : { subjectNo: args.subjectNo }
      const created = await ctx.api.call(api.createSample, { studyId, sample: { ...args.sample, ...owner } })
      changed(ctx)
      ctx.ui.toast(ctx.t('samples.created', [created.sampleNo]), 'success')
      return
    }
    // From a subject's detail, the new sample is that subject's: its number is filled in.
    const subject = subjectOf(ctx)
    onList(ctx, studyId)
    ctx.ui.open(sampleDialog, {
      mode: 'create',
      studyId,
      subjectNo: args?.subjectNo ?? (subject?.studyId === studyId ? subject.subjectNo : undefined),
    })
  },
})

export const newAliquot = defineCommand({
  id: 'samples.newAliquot',
  title: 'samples.command.newAliquot',
  section: 'subject',
  permission: 'subject.edit',
  keywords: ['aliquot', 'split', 'sample', '分装', '样本'],
  hotkey: 'alt+shift+g',
  args: z.object({ studyId: idValue.optional(), parentId: idValue.optional(), sample: api.sampleFields.optional() }).optional(),
  enabled: (ctx, args) => args?.parentId !== undefined || selectedMay(ctx, 'aliquot'),
  run: async (ctx, args) => {
    const studyId = studyOf(ctx, args?.studyId)
    if (studyId === null) return noProject(ctx)
    if (args?.sample && args.parentId !== undefined) {
      const created = await ctx.api.call(api.createSample, { studyId, sample: { ...args.sample, parentId: args.parentId } })
      changed(ctx)
      ctx.ui.toast(ctx.t('samples.created', [created.sampleNo]), 'success')
      return
    }
    const parent = await sampleOf(ctx, studyId, args?.parentId)
    if (!parent) return
    stopIfRefused(ctx, parent, 'aliquot')
    onList(ctx, studyId)
    ctx.ui.open(sampleDialog, { mode: 'aliquot', studyId, parent })
  },
})

export const editSample = defineCommand({
  id: 'samples.edit',
  title: 'samples.command.edit',
  section: 'subject',
  permission: 'subject.edit',
  keywords: ['sample', 'edit', 'location', 'freezer', '样本', '编辑', '位置'],
  args: target.extend({ sample: api.sampleUpdate.optional() }).optional(),
  when: (ctx) => studyOf(ctx) !== null,
  run: async (ctx, args) => {
    const studyId = studyOf(ctx, args?.studyId)
    if (studyId === null) return
    if (args?.sample && args.sampleId !== undefined) {
      await ctx.api.call(api.updateSample, { studyId, sampleId: args.sampleId, sample: args.sample })
      changed(ctx)
      ctx.ui.toast(ctx.t('message.saveSuccess'), 'success')
      return
    }
    const sample = await sampleOf(ctx, studyId, args?.sampleId)
    if (!sample) return
    onList(ctx, studyId)
    ctx.ui.open(sampleDialog, { mode: 'edit', studyId, sample })
  },
})

export const setSampleStatus = defineCommand({
  id: 'samples.setStatus',
  title: 'samples.command.setStatus',
  section: 'subject',
  permission: 'subject.edit',
  keywords: ['sample', 'status', 'used', 'destroyed', 'available', '样本', '状态', '销毁', '已使用'],
  args: target.extend({ change: api.sampleStatusInput.optional() }).optional(),
  when: (ctx) => studyOf(ctx) !== null,
  enabled: (ctx, args) => args?.sampleId !== undefined || selectedMay(ctx, 'status'),
  run: async (ctx, args) => {
    const studyId = studyOf(ctx, args?.studyId)
    if (studyId === null) return
    if (args?.change && args.sampleId !== undefined) {
      const s = await ctx.api.call(api.setSampleStatus, { studyId, sampleId: args.sampleId, change: args.change })
      changed(ctx)
      ctx.ui.toast(ctx.t('samples.statusChanged', [s.sampleNo, ctx.t(`samples.statuses.${s.status}`)]), 'success')
      return
    }
    const sample = await sampleOf(ctx, studyId, args?.sampleId)
    if (!sample) return
    stopIfRefused(ctx, sample, 'status')
    onList(ctx, studyId)
    ctx.ui.open(sampleStatusDialog, { studyId, sample })
  },
})

/** Confirmed; the server refuses while the sample has aliquots or filled sample CRFs, and its message is shown. */
export const deleteSample = defineCommand({
  id: 'samples.delete',
  title: 'samples.command.delete',
  section: 'subject',
  permission: 'subject.delete',
  keywords: ['sample', 'delete', 'remove', '样本', '删除'],
  args: target.optional(),
  when: (ctx) => studyOf(ctx) !== null,
  run: async (ctx, args) => {
    const studyId = studyOf(ctx, args?.studyId)
    if (studyId === null) return
    const sample = await sampleOf(ctx, studyId, args?.sampleId)
    if (!sample) return
    if (!(await ctx.ui.confirm(ctx.t('samples.deleteConfirm', [sample.sampleNo]), ctx.t('samples.deleteDetail')))) return
    await ctx.api.call(api.deleteSample, { studyId, sampleId: sample.id })
    changed(ctx)
    ctx.ui.toast(ctx.t('samples.deleted', [sample.sampleNo]), 'success')
  },
})

/** A sample CRF is entered in the subject's detail, on that form and sample (its record when filled). */
export const openSampleCrf = defineCommand({
  id: 'samples.openCrf',
  title: 'samples.command.openCrf',
  section: 'subject',
  permission: 'subject.view',
  args: z.object({
    studyId: idValue,
    subjectId: idValue,
    templateId: idValue,
    sampleId: idValue,
    recordId: idValue.optional(),
    toSide: z.boolean().default(false),
  }),
  run: (ctx, args) => {
    const path = screenPath('patientDetail', {
      studyId: args.studyId,
      id: args.subjectId,
      templateId: args.templateId,
      recordId: args.recordId,
      sampleId: args.sampleId,
    })
    if (args.toSide) ctx.panes.openToSide(path)
    else ctx.navigate(path)
  },
})

export const sampleCommands: AnyCommand[] = [newSample, newAliquot, editSample, setSampleStatus, deleteSample, openSampleCrf]
