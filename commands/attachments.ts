/**
 * Attachments of a research object (SPEC §2 picture field, §7 api/public/attachment): upload a
 * picture (of the subject, of a record, or of one field of a record), download one, delete one.
 * Without arguments, upload works on the subject of the focused detail screen (and its record).
 * The picture rules are checked here first so a wrong file never travels; the server checks the
 * content again.
 */
import { z } from 'zod'
import { attachmentLimits, attachmentPaths, attachmentTypes, deleteAttachment, type Attachment } from '../contract/attachments.ts'
import type { CommandContext } from './context.ts'
import { defineCommand, type AnyCommand } from './define.ts'

const id = z.number().int().positive()

/** Where a picture goes. */
const target = z.object({ studyId: id, subjectId: id, recordId: id.optional(), indicatorId: id.optional() })
type Target = z.infer<typeof target>

/** The types a browser names for the accepted pictures (SPEC §5: jpeg, jpg, png, bmp). */
const acceptedTypes = ['image/jpeg', 'image/jpg', 'image/png', 'image/bmp']

/** The subject (and record) of the focused detail screen. */
const detailParams = z.object({
  studyId: z.coerce.number().int().positive(),
  id: z.coerce.number().int().positive(),
  recordId: z.coerce.number().int().positive().optional(),
})
function focusedTarget(ctx: CommandContext): Target | null {
  if (ctx.focus?.screen !== 'patientDetail') return null
  const p = detailParams.safeParse(ctx.focus.params)
  return p.success ? { studyId: p.data.studyId, subjectId: p.data.id, recordId: p.data.recordId } : null
}

export const uploadAttachment = defineCommand({
  id: 'attachments.upload',
  title: 'attachments.command.upload',
  section: 'subject',
  permission: 'subject.edit',
  keywords: ['picture', 'image', 'photo', 'attachment', 'upload', '图片', '附件', '上传'],
  hotkey: 'alt+shift+y',
  // From a button: the target, and the chosen file and a progress listener when it has them.
  args: target
    .extend({
      file: z.custom<File>((v) => typeof File !== 'undefined' && v instanceof File).optional(),
      onProgress: z.custom<(fraction: number) => void>((v) => typeof v === 'function').optional(),
      onDone: z.custom<(attachment: Attachment) => void>((v) => typeof v === 'function').optional(),
    })
    .optional(),
  when: (ctx) => focusedTarget(ctx) !== null,
  run: async (ctx, args) => {
    const where = args ?? focusedTarget(ctx)
    if (!where) return
    const file = args?.file ?? (await ctx.ui.pickFile(attachmentLimits.accept))
    if (!file) return
    if (!acceptedTypes.includes(file.type)) return ctx.ui.toast(ctx.t('image.typeError'), 'danger')
    if (file.size > attachmentLimits.maxBytes) return ctx.ui.toast(ctx.t('image.sizeError'), 'danger')
    const saved = await ctx.api.upload<Attachment>(
      attachmentPaths.upload,
      file,
      {
        type: attachmentTypes.picture,
        studyId: where.studyId,
        objectId: where.subjectId,
        recordId: where.recordId,
        indicatorId: where.indicatorId,
      },
      args?.onProgress,
    )
    ctx.invalidate('attachments')
    ctx.ui.toast(ctx.t('image.saveSuccess'), 'success')
    args?.onDone?.(saved)
  },
})

export const deleteAttachmentCommand = defineCommand({
  id: 'attachments.delete',
  title: 'attachments.command.delete',
  section: 'subject',
  permission: 'subject.edit',
  args: z.object({ studyId: id, subjectId: id, attachmentId: id, name: z.string() }),
  run: async (ctx, args) => {
    // A saved picture is saved data: its deletion needs a reason, as any change of it does.
    const reason = await ctx.ui.reason(ctx.t('attachments.deleteConfirm', [args.name]), ctx.t('attachments.deleteDetail'))
    if (reason === null) return
    await ctx.api.call(deleteAttachment, {
      type: attachmentTypes.picture,
      studyId: args.studyId,
      objectId: args.subjectId,
      attachmentId: args.attachmentId,
      reason,
    })
    ctx.invalidate('attachments')
    ctx.ui.toast(ctx.t('image.deleteSuccess'), 'success')
  },
})

export const downloadAttachment = defineCommand({
  id: 'attachments.download',
  title: 'attachments.command.download',
  section: 'subject',
  permission: 'subject.view',
  args: z.object({ studyId: id, attachmentId: id }),
  run: (ctx, args) => ctx.api.download(attachmentPaths.file(args.studyId, args.attachmentId)),
})

export const attachmentCommands: AnyCommand[] = [uploadAttachment, deleteAttachmentCommand, downloadAttachment]
