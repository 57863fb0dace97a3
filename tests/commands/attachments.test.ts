import { describe, expect, it, vi } from 'vitest'
import { attachmentPaths, deleteAttachment, type Attachment } from '../../contract/attachments.ts'
import { screenPath } from '../../contract/screenPaths.ts'
import { execute, getCommand } from '../../commands/registry.ts'
import { calledEffects, expectOnly, testContext } from './context.ts'

/**
 * The attachment commands (SPEC §2 picture field, §7 api/public/attachment): upload from the
 * focused detail screen or from a button with its own target, the picture rules before anything
 * travels, delete confirmed, download through the project's scoped path.
 */

const run = (id: string, ctx: ReturnType<typeof testContext>, args?: unknown) => execute(getCommand(id), ctx, 'test', args)
const detail = screenPath('patientDetail', { studyId: 4, id: 17, recordId: 9 })
const png = () => new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47])], 'scan.png', { type: 'image/png' })
const saved: Attachment = {
  id: 5,
  subjectId: 17,
  recordId: 9,
  indicatorId: null,
  name: 'scan.png',
  mime: 'image/png',
  size: 4,
  path: attachmentPaths.file(4, 5),
  createdAt: '2026-12-01T00:00:00.000Z',
  createdBy: 'Ann',
}

describe('attachments.upload', () => {
  it('from the palette: asks for a picture and uploads it for the focused subject and record', async () => {
    const f = png()
    const ctx = testContext({
      lang: 'en',
      path: detail,
      ui: { pickFile: () => Promise.resolve(f) },
      api: { upload: () => Promise.resolve(saved as never) },
    })
    await expect(run('attachments.upload', ctx)).resolves.toEqual({ ok: true })
    expect(ctx.ui.pickFile).toHaveBeenCalledWith(expect.stringContaining('.bmp'))
    expect(ctx.api.upload).toHaveBeenCalledWith(
      attachmentPaths.upload,
      f,
      { type: 3, studyId: 4, objectId: 17, recordId: 9, indicatorId: undefined },
      undefined,
    )
    expect(ctx.invalidate).toHaveBeenCalledWith('attachments')
    expect(ctx.ui.toast).toHaveBeenCalledWith('Saved successfully!', 'success')
  })

  it('from a button: its own target, file and progress listener; hears the saved attachment', async () => {
    const onProgress = vi.fn()
    const onDone = vi.fn()
    const ctx = testContext({ path: detail, api: { upload: () => Promise.resolve(saved as never) } })
    await run('attachments.upload', ctx, { studyId: 4, subjectId: 17, recordId: 9, indicatorId: 30, file: png(), onProgress, onDone })
    expect(ctx.ui.pickFile).not.toHaveBeenCalled()
    expect(ctx.api.upload).toHaveBeenCalledWith(
      attachmentPaths.upload,
      expect.any(File),
      expect.objectContaining({ indicatorId: 30 }),
      onProgress,
    )
    expect(onDone).toHaveBeenCalledWith(saved)
  })

  it('refuses a file that is not a picture, or over 5 MB, before anything travels (SPEC messages)', async () => {
    const text = new File(['hello'], 'notes.txt', { type: 'text/plain' })
    const zh = testContext({ path: detail, ui: { pickFile: () => Promise.resolve(text) } })
    await run('attachments.upload', zh)
    expect(zh.ui.toast).toHaveBeenCalledWith('上传文件只能是图片格式!', 'danger')
    const big = new File([new Uint8Array(5 * 1024 * 1024 + 1)], 'big.png', { type: 'image/png' })
    const en = testContext({ lang: 'en', path: detail, ui: { pickFile: () => Promise.resolve(big) } })
    await run('attachments.upload', en)
    expect(en.ui.toast).toHaveBeenCalledWith('The uploaded file cannot exceed 5MB!', 'danger')
    expect(en.api.upload).not.toHaveBeenCalled()
    expect(zh.api.upload).not.toHaveBeenCalled()
  })

  it('does nothing when the chooser is cancelled; is unavailable away from a subject or without subject.edit', async () => {
    const ctx = testContext({ path: detail })
    await run('attachments.upload', ctx)
    expect(calledEffects(ctx)).toEqual([])
    expect(await run('attachments.upload', testContext())).toEqual({ ok: false, reason: 'unavailable' })
    expect(await run('attachments.upload', testContext({ path: detail, grants: ['subject.view'] }))).toEqual({
      ok: false,
      reason: 'unavailable',
    })
  })
})

describe('attachments.delete and download', () => {
  const args = { studyId: 4, subjectId: 17, attachmentId: 5, name: 'scan.png' }

  it('deletes with the reason asked by a question naming the picture, then reloads the lists', async () => {
    const seen: unknown[] = []
    const ctx = testContext({
      lang: 'en',
      answer: (endpoint, input) => {
        expect(endpoint).toBe(deleteAttachment)
        seen.push(input)
        return undefined
      },
    })
    await run('attachments.delete', ctx, args)
    expect(ctx.ui.reason).toHaveBeenCalledWith('Delete the picture “scan.png”?', 'The audit trail keeps its name and your reason')
    expect(seen).toEqual([{ type: 3, studyId: 4, objectId: 17, attachmentId: 5, reason: 'a reason' }])
    expect(ctx.invalidate).toHaveBeenCalledWith('attachments')
  })

  it('changes nothing when the reason is cancelled', async () => {
    const ctx = testContext({ ui: { reason: () => Promise.resolve(null) } })
    await run('attachments.delete', ctx, args)
    expectOnly(ctx)
  })

  it('downloads through the project-scoped path', async () => {
    const ctx = testContext({ api: { download: () => Promise.resolve() } })
    await run('attachments.download', ctx, { studyId: 4, attachmentId: 5 })
    expect(ctx.api.download).toHaveBeenCalledWith('api/projects/4/attachments/5')
  })
})
