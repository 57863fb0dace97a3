/** The data-loading commands (issue 11 item 6) run through the registry with a test context. */
import { describe, expect, it, vi } from 'vitest'
import {
  dataLoadCommands,
  dataLoadScreen,
  uploadAccept,
  type DataLoadActions,
  type DataLoadTab,
  type UploadListener,
} from '../../commands/dataLoader.ts'
import { execute, getCommand, isAvailable } from '../../commands/registry.ts'
import type { DownloadRecord, UploadRecord, UploadResult } from '../../contract/dataLoader.ts'
import { eventMap } from '../../src/features/dataloader/uploadState.ts'
import { translate } from '../../src/i18n/index.ts'
import { expectOnly, offer, testContext, type TestOverrides } from './context.ts'

const run = (id: string, ctx: ReturnType<typeof testContext>, args?: unknown) => execute(getCommand(id), ctx, 'test', args)

const file = new File(['subject_id,demo_age\nS-1,40\n'], 'data.csv', { type: 'text/csv' })

const loaded: UploadResult = {
  uploadId: 11,
  outcome: 'loaded',
  rows: 12,
  created: 3,
  updated: 2,
  unchanged: 7,
  enrolled: 1,
  errors: [],
  errorsTotal: 0,
  reportUrl: null,
}

const refused: UploadResult = {
  ...loaded,
  uploadId: 12,
  outcome: 'refused',
  created: 0,
  updated: 0,
  unchanged: 0,
  enrolled: 0,
  errors: [{ sheet: 'Demo baseline', row: 4, column: 'demo_age', value: '200', message: 'Age: at most 90' }],
  errorsTotal: 1,
  reportUrl: 'api/scientific/dataloader/uploads/12/report?studyId=7',
}

/** A refusal as src/api/client.ts rejects it: an Error with the server's envelope. */
const refusal = (status: number, data: unknown) =>
  Object.assign(new Error('refused'), { status, envelope: { code: status, msg: 'refused', data } })

const earlier = { duplicateOf: { uploadId: 9, at: '2026-11-27T22:45:21.913Z', by: 'Li Lei', fileName: 'first.csv', outcome: 'loaded' } }
/** That moment in this machine's zone, as the app shows times. */
const earlierLocal = (() => {
  const d = new Date(earlier.duplicateOf.at)
  const two = (n: number) => String(n).padStart(2, '0')
  return `${d.getFullYear()}-${two(d.getMonth() + 1)}-${two(d.getDate())} ${two(d.getHours())}:${two(d.getMinutes())}`
})()

/** A listener of spies, as the upload panel's. */
function listener() {
  return {
    start: vi.fn<UploadListener['start']>(),
    progress: vi.fn<UploadListener['progress']>(),
    done: vi.fn<UploadListener['done']>(),
    refused: vi.fn<UploadListener['refused']>(),
    failed: vi.fn<UploadListener['failed']>(),
    idle: vi.fn<UploadListener['idle']>(),
  } satisfies UploadListener
}

const uploadRow: UploadRecord = {
  id: 21,
  projectId: 7,
  userName: 'demo',
  at: '2026-11-20 10:00',
  fileName: 'a.xlsx',
  size: 2048,
  sha256: 'ab'.repeat(32),
  rows: 10,
  durationMs: 120,
  available: true,
  outcome: 'refused',
  errorsTotal: 2,
  hasReport: true,
  message: '',
  forms: 'Demo baseline',
}
const downloadRow: DownloadRecord = { ...uploadRow, id: 31, format: 'odm', scope: 'Demo baseline' }

/** The focused data-loading screen of project 7 on `tab`, offering `actions`. */
function onScreen(tab: DataLoadTab, actions: Partial<DataLoadActions> = {}, more: TestOverrides = {}) {
  const screen: DataLoadActions = {
    studyId: 7,
    tab,
    upload: () => null,
    selectedUpload: () => null,
    selectedDownload: () => null,
    ...actions,
  }
  return testContext({ path: `/project/data-loading?id=7&tab=${tab}`, provides: [offer(dataLoadScreen, screen)], ...more })
}

describe('data-loading commands', () => {
  it('have a zh and an en title and sit in the project section', () => {
    for (const c of dataLoadCommands) {
      expect(c.section).toBe('project')
      expect(translate('en', c.title)).not.toBe(translate('zh', c.title))
    }
  })

  it('open the screen for the given project, the focused one, else the current one; on a tab, to the side on request', async () => {
    const given = testContext()
    await run('dataLoad.open', given, { id: 3 })
    expect(given.navigate).toHaveBeenCalledWith('/project/data-loading?id=3')
    await run('dataLoad.open', given, { id: 3, tab: 'uploads', toSide: true })
    expect(given.panes.openToSide).toHaveBeenCalledWith('/project/data-loading?id=3&tab=uploads')

    const focused = testContext({ path: '/project/multi-detail?id=9', record: { kind: 'project', id: 9, name: 'P' } })
    await run('dataLoad.open', focused)
    expect(focused.navigate).toHaveBeenCalledWith('/project/data-loading?id=9')

    const current = testContext({ currentProject: { id: 4, name: 'C', number: 'C-1' } })
    await run('dataLoad.open', current)
    expect(current.navigate).toHaveBeenCalledWith('/project/data-loading?id=4')
  })

  it('without any project they say so in the user language and go nowhere', async () => {
    const none = testContext({ lang: 'en' })
    const res = await run('dataLoad.upload', none, { file })
    expect(res.ok).toBe(false)
    expect(none.ui.toast).toHaveBeenCalledWith('Choose a project first', 'danger')
    expectOnly(none, 'ui.toast')
  })

  it('are hidden without the screen, and without the data-loading grants', async () => {
    const noScreen = testContext({ screens: ['dashboard'], currentProject: { id: 4, name: 'C', number: 'C-1' } })
    for (const c of dataLoadCommands) expect(isAvailable(c, noScreen), c.id).toBe(false)

    const noGrant = testContext({ grants: ['subject.view'], currentProject: { id: 4, name: 'C', number: 'C-1' } })
    for (const c of dataLoadCommands) expect(isAvailable(c, noGrant), c.id).toBe(false)
    expect(await run('dataLoad.upload', noGrant, { studyId: 4, file })).toMatchObject({ ok: false, reason: 'unavailable' })
    expectOnly(noGrant)

    const exporter = testContext({ grants: ['dataLoad.export'], currentProject: { id: 4, name: 'C', number: 'C-1' } })
    expect(isAvailable(getCommand('dataLoad.open'), exporter)).toBe(true)
    expect(isAvailable(getCommand('dataLoad.download'), exporter)).toBe(true)
    expect(isAvailable(getCommand('dataLoad.upload'), exporter)).toBe(false)
    expect(isAvailable(getCommand('dataLoad.downloadTemplate'), exporter)).toBe(false)
  })

  it('download template fetches the chosen CRFs in the chosen language; without CRFs it shows the template tab', async () => {
    const ctx = testContext({ lang: 'en' })
    await run('dataLoad.downloadTemplate', ctx, { studyId: 7, templateIds: [5, 2], lang: 'zh' })
    expect(ctx.api.download).toHaveBeenCalledWith('api/scientific/dataloader/downloadTemplate', {
      studyId: 7,
      templateIds: '5,2',
      lang: 'zh',
    })

    const palette = testContext({ currentProject: { id: 7, name: 'C', number: 'C-1' } })
    await run('dataLoad.downloadTemplate', palette)
    expect(palette.navigate).toHaveBeenCalledWith('/project/data-loading?id=7&tab=template')
    expect(palette.api.download).not.toHaveBeenCalled()

    // Already on another tab of the screen: that tab gives way to the template tab.
    const screen = onScreen('uploads')
    await run('dataLoad.downloadTemplate', screen)
    expect(screen.panes.close).toHaveBeenCalledWith('/project/data-loading?id=7&tab=uploads')
    expect(screen.navigate).toHaveBeenCalledWith('/project/data-loading?id=7&tab=template')
  })

  it('upload sends the file with its choices, reports progress, counts and reloads the records and subjects', async () => {
    const heard = listener()
    const ctx = testContext({
      lang: 'en',
      api: {
        upload: async (_path, _file, _query, onProgress) => {
          onProgress?.(0.5)
          onProgress?.(1)
          return loaded as never
        },
      },
    })
    const res = await run('dataLoad.upload', ctx, { studyId: 7, file, templateId: 5, format: 'redcap', enrol: true, listener: heard })
    expect(res.ok).toBe(true)
    expect(ctx.api.upload).toHaveBeenCalledWith(
      'api/scientific/dataloader/uploadFile',
      file,
      { studyId: 7, templateId: 5, format: 'redcap', enrol: 'true', again: undefined, lang: 'en' },
      heard.progress,
      expect.any(Function),
    )
    expect(heard.start).toHaveBeenCalledWith('data.csv')
    expect(heard.progress.mock.calls).toEqual([[0.5], [1]])
    expect(heard.done).toHaveBeenCalledWith(loaded)
    expect(ctx.ui.toast).toHaveBeenCalledWith('12 rows: 3 new, 2 changed, 7 unchanged, 1 subject enrolled', 'success')
    expect(ctx.invalidate).toHaveBeenCalledWith('dataLoadRecords')
    expect(ctx.invalidate).toHaveBeenCalledWith('subjects')
  })

  it('a REDCap upload sends its complete event pairs as JSON; another format sends none', async () => {
    const upload = vi.fn(async (_path: string, _file: File, _query?: Record<string, unknown>) => loaded as never)
    const ctx = testContext({ lang: 'en', api: { upload } })
    const events = eventMap({
      events: [
        { event: ' month_3_arm_1 ', visit: '12' },
        { event: '', visit: '13' },
        { event: 'month_6_arm_1', visit: '' },
      ],
    })
    expect(events).toEqual({ month_3_arm_1: '12' })
    await run('dataLoad.upload', ctx, { studyId: 7, file, format: 'redcap', events })
    expect(upload.mock.calls[0]![2]).toMatchObject({ format: 'redcap', events: '{"month_3_arm_1":"12"}' })
    await run('dataLoad.upload', ctx, { studyId: 7, file, format: 'auto', events })
    expect(upload.mock.calls[1]![2]).toMatchObject({ format: 'auto', events: undefined })
    await run('dataLoad.upload', ctx, { studyId: 7, file, format: 'redcap', events: {} })
    expect(upload.mock.calls[2]![2]).toMatchObject({ events: undefined })
  })

  it('a refused upload hands every bad cell to the panel and fails with the count in the user language', async () => {
    const heard = listener()
    const ctx = testContext({
      lang: 'en',
      api: {
        upload: () => Promise.reject(refusal(400, refused)),
      },
    })
    const res = await run('dataLoad.upload', ctx, { studyId: 7, file, listener: heard })
    expect(res.ok).toBe(false)
    expect(heard.refused).toHaveBeenCalledWith(refused)
    expect(heard.done).not.toHaveBeenCalled()
    expect(ctx.ui.toast).toHaveBeenCalledWith('File refused: 1 bad cell, nothing was written', 'danger')
    expect(ctx.invalidate).toHaveBeenCalledWith('dataLoadRecords')
    expect(ctx.invalidate).not.toHaveBeenCalledWith('subjects')
  })

  it('a failure without an answer ends the panel’s wait', async () => {
    const heard = listener()
    const ctx = testContext({ api: { upload: () => Promise.reject(new Error('Network Error')) } })
    const res = await run('dataLoad.upload', ctx, { studyId: 7, file, listener: heard })
    expect(res.ok).toBe(false)
    expect(heard.failed).toHaveBeenCalledWith('Network Error')
  })

  it('the same content again is loaded only when the user confirms, naming the earlier upload', async () => {
    const upload = vi.fn((_p: string, _f: File, query?: Record<string, unknown>) =>
      query?.again === 'true' ? Promise.resolve(loaded as never) : Promise.reject(refusal(409, earlier)),
    )
    const heard = listener()
    const yes = testContext({ lang: 'en', api: { upload } })
    expect((await run('dataLoad.upload', yes, { studyId: 7, file, listener: heard })).ok).toBe(true)
    // One question, at local time, whose button says what the message names; no toast beside it.
    expect(yes.ui.confirm).toHaveBeenCalledWith(
      `A file with the same content, first.csv, was uploaded by Li Lei at ${earlierLocal}. Choose “Upload again” to load it again.`,
      expect.any(String),
      'Upload again',
      true,
    )
    // The panel stops saying it writes while the question waits.
    expect(heard.idle.mock.invocationCallOrder[0]).toBeLessThan(yes.ui.confirm.mock.invocationCallOrder[0]!)
    const answers = yes.api.upload.mock.calls[0]?.[4] as ((data: unknown) => boolean) | undefined
    expect(answers?.(earlier)).toBe(true)
    expect(answers?.(refused)).toBe(false)
    expect(yes.ui.toast).toHaveBeenCalledTimes(1)
    expect(yes.ui.toast).toHaveBeenCalledWith('12 rows: 3 new, 2 changed, 7 unchanged, 1 subject enrolled', 'success')
    expect(upload).toHaveBeenCalledTimes(2)
    expect(upload.mock.calls[1]?.[2]).toMatchObject({ studyId: 7, again: 'true' })
    expect(heard.done).toHaveBeenCalledWith(loaded)
    // It enrolled a subject: the project's count and progress are read again with the lists.
    expect(yes.invalidate).toHaveBeenCalledWith('projects')
    expect(yes.invalidate).toHaveBeenCalledWith('followUp')

    upload.mockClear()
    const kept = listener()
    const no = testContext({ api: { upload }, ui: { confirm: () => Promise.resolve(false) } })
    expect((await run('dataLoad.upload', no, { studyId: 7, file, listener: kept })).ok).toBe(true)
    expect(no.ui.confirm).toHaveBeenCalledWith(
      expect.stringContaining('确认要再次导入请选择“再次导入”'),
      expect.any(String),
      '再次导入',
      true,
    )
    expect(upload).toHaveBeenCalledTimes(1)
    expect(kept.idle).toHaveBeenCalled()
    expect(kept.done).not.toHaveBeenCalled()
  })

  it('the same content loaded by someone the user may not see: the question names no one and no time', async () => {
    const theirs = { duplicateOf: { uploadId: 0, at: null, by: '', fileName: 'mine.csv', outcome: 'loaded' } }
    const upload = vi.fn(() => Promise.reject(refusal(409, theirs)))
    for (const [lang, text] of [
      ['en', 'A file with the same content as mine.csv was uploaded before by someone else. Choose “Upload again” to load it again.'],
      ['zh', '与 mine.csv 内容相同的文件已由他人上传过。确认要再次导入请选择“再次导入”。'],
    ] as const) {
      const ctx = testContext({ lang, api: { upload }, ui: { confirm: () => Promise.resolve(false) } })
      expect((await run('dataLoad.upload', ctx, { studyId: 7, file, listener: listener() })).ok).toBe(true)
      expect(ctx.ui.confirm).toHaveBeenCalledWith(text, expect.any(String), expect.any(String), true)
    }
  })

  it('from the palette: on the upload tab it asks for a file with the tab’s choices; elsewhere it shows that tab', async () => {
    const heard = listener()
    const ctx = onScreen(
      'upload',
      { upload: () => ({ templateId: 8, format: 'auto', enrol: false, listener: heard }) },
      { ui: { pickFile: () => Promise.resolve(file) }, api: { upload: () => Promise.resolve(loaded as never) } },
    )
    await run('dataLoad.upload', ctx)
    expect(ctx.ui.pickFile).toHaveBeenCalledWith(uploadAccept)
    expect(ctx.api.upload.mock.calls[0]?.[2]).toMatchObject({ studyId: 7, templateId: 8, format: 'auto', enrol: undefined })
    expect(heard.done).toHaveBeenCalledWith(loaded)

    const cancelled = onScreen('upload', { upload: () => ({ format: 'auto', enrol: false, listener: heard }) })
    await run('dataLoad.upload', cancelled)
    expect(cancelled.api.upload).not.toHaveBeenCalled()

    // The panel's button brings its listener: the chooser opens wherever the focus is.
    const button = testContext()
    await run('dataLoad.upload', button, { studyId: 7, listener: listener() })
    expect(button.ui.pickFile).toHaveBeenCalledWith(uploadAccept)
    expect(button.navigate).not.toHaveBeenCalled()

    const elsewhere = testContext({ currentProject: { id: 7, name: 'C', number: 'C-1' } })
    await run('dataLoad.upload', elsewhere)
    expect(elsewhere.navigate).toHaveBeenCalledWith('/project/data-loading?id=7&tab=upload')
    expectOnly(elsewhere, 'navigate')
  })

  it('download data asks for the chosen scope as id lists; without a choice it shows the download tab', async () => {
    const ctx = testContext({ lang: 'en' })
    await run('dataLoad.download', ctx, {
      studyId: 7,
      choice: { format: 'odm', templateIds: [1, 2], queueIds: [3], centerIds: [4, 5], visitIds: [6] },
    })
    expect(ctx.api.download).toHaveBeenCalledWith('api/scientific/dataloader/downloadData', {
      studyId: 7,
      format: 'odm',
      templateIds: '1,2',
      fieldIds: undefined,
      queueIds: '3',
      centerIds: '4,5',
      visitIds: '6',
      lang: 'en',
    })
    expect(ctx.invalidate).toHaveBeenCalledWith('dataLoadRecords')

    const bad = testContext()
    expect((await run('dataLoad.download', bad, { studyId: 7, choice: { templateIds: [] } })).ok).toBe(false)
    expect(bad.api.download).not.toHaveBeenCalled()

    const palette = testContext({ currentProject: { id: 7, name: 'C', number: 'C-1' } })
    await run('dataLoad.download', palette)
    expect(palette.navigate).toHaveBeenCalledWith('/project/data-loading?id=7&tab=download')
  })

  it('records tabs open from anywhere for the project', async () => {
    const ctx = testContext({ currentProject: { id: 7, name: 'C', number: 'C-1' } })
    await run('dataLoad.openUploads', ctx)
    expect(ctx.navigate).toHaveBeenCalledWith('/project/data-loading?id=7&tab=uploads')
    await run('dataLoad.openDownloads', ctx, { studyId: 8, toSide: true })
    expect(ctx.panes.openToSide).toHaveBeenCalledWith('/project/data-loading?id=8&tab=downloads')
  })

  it('re-download and the upload files fetch the named record, else the selected row of the focused records', async () => {
    const named = onScreen('downloads')
    await run('dataLoad.redownload', named, { studyId: 7, id: 31 })
    expect(named.api.download).toHaveBeenCalledWith('api/scientific/dataloader/downloads/31/file', { studyId: 7 })

    const selected = onScreen('downloads', { selectedDownload: () => downloadRow })
    await run('dataLoad.redownload', selected)
    expect(selected.api.download).toHaveBeenCalledWith('api/scientific/dataloader/downloads/31/file', { studyId: 7 })

    const uploads = onScreen('uploads', { selectedUpload: () => uploadRow })
    await run('dataLoad.fetchUpload', uploads)
    await run('dataLoad.fetchReport', uploads)
    expect(uploads.api.download.mock.calls).toEqual([
      ['api/scientific/dataloader/uploads/21/file', { studyId: 7 }],
      ['api/scientific/dataloader/uploads/21/report', { studyId: 7 }],
    ])

    expect(isAvailable(getCommand('dataLoad.redownload'), onScreen('uploads'))).toBe(false)
    expect(isAvailable(getCommand('dataLoad.fetchUpload'), onScreen('downloads'))).toBe(false)
  })

  it('say why nothing is fetched: no row, a file past its retention, an upload without a report', async () => {
    const none = onScreen('downloads', {}, { lang: 'en' })
    await run('dataLoad.redownload', none)
    expect(none.ui.toast).toHaveBeenCalledWith('Choose a row of the records first', 'warning')
    expectOnly(none, 'ui.toast')

    const expired = onScreen('uploads', { selectedUpload: () => ({ ...uploadRow, available: false }) }, { lang: 'en' })
    await run('dataLoad.fetchUpload', expired)
    expect(expired.ui.toast).toHaveBeenCalledWith('The file is past its retention period and cannot be fetched', 'warning')
    expectOnly(expired, 'ui.toast')

    const noReport = onScreen('uploads', { selectedUpload: () => ({ ...uploadRow, hasReport: false }) }, { lang: 'en' })
    await run('dataLoad.fetchReport', noReport)
    expect(noReport.ui.toast).toHaveBeenCalledWith('This upload has no error report', 'warning')
    expectOnly(noReport, 'ui.toast')
  })
})
