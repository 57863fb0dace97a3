/**
 * Data loading (issue 11 item 6): open the screen of a project (a tab of it), download a CRF
 * template, upload a data file (xlsx, CSV, REDCap records), download data, and fetch again what
 * the records keep (an upload's original file and error report, a download's file). A command
 * acts on the project named in its arguments, else the focused data-loading screen's, else the
 * focused project, else the current project. The server decides every rule again (grants,
 * centers, the pinned CRF versions, every cell).
 */
import { z } from 'zod'
import {
  dataLoaderPaths,
  downloadFormats,
  duplicateUpload,
  uploadFormats,
  uploadResult,
  type DownloadRecord,
  type DuplicateUpload,
  type UploadRecord,
  type UploadResult,
} from '../contract/dataLoader.ts'
import { idValue } from '../contract/ids.ts'
import { screenPath } from '../contract/screenPaths.ts'
import { capability, type CommandContext } from './context.ts'
import { Refusal, defineCommand, type AnyCommand } from './define.ts'

export const dataLoadTabs = ['template', 'upload', 'download', 'uploads', 'downloads'] as const
export type DataLoadTab = (typeof dataLoadTabs)[number]

/** Files an upload takes; the server checks the content whatever the name says. */
export const uploadAccept = '.xlsx,.csv,text/csv,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'

/** How the upload panel hears an upload's stages; the palette without the panel needs none. */
export interface UploadListener {
  start(fileName: string): void
  /** The fraction of the file's bytes sent (1: the server is checking and writing). */
  progress(fraction: number): void
  done(result: UploadResult): void
  refused(result: UploadResult): void
  /** Ended without an answer to show (a failure the toast names). */
  failed(message: string): void
  /** Nothing was sent after all (the user kept the earlier upload). */
  idle(): void
}

/** The upload panel's choices, which the palette's upload uses when the panel has the focus. */
export interface UploadChoices {
  templateId?: number
  format: (typeof uploadFormats)[number]
  enrol: boolean
  /** REDCap records: event name → visit id, for events whose names are not the visits' own. */
  events?: Record<string, string>
  listener: UploadListener
}

/** What the data-loading screen offers commands while it has the focus. */
export interface DataLoadActions {
  studyId: number
  tab: DataLoadTab
  /** The upload panel's choices (only on the upload tab). */
  upload(): UploadChoices | null
  /** The selected row of the upload or download records. */
  selectedUpload(): UploadRecord | null
  selectedDownload(): DownloadRecord | null
}
export const dataLoadScreen = capability<DataLoadActions>('dataLoad.screen')

const screenOf = (ctx: CommandContext) => (ctx.focus?.screen === 'dataLoading' ? ctx.focus.use(dataLoadScreen) : undefined)

/** The project: the argument, the focused data-loading screen's, the focused project, else the current one. */
function projectOf(ctx: CommandContext, given?: number): number | undefined {
  if (given !== undefined) return given
  const screen = screenOf(ctx)
  if (screen) return screen.studyId
  const focus = ctx.focus
  if (focus?.screen === 'dataLoading' && typeof focus.params.id === 'number') return focus.params.id
  if (focus?.record?.kind === 'project') return focus.record.id
  return ctx.currentProject.value?.id
}

function mustProject(ctx: CommandContext, given?: number): number {
  const id = projectOf(ctx, given)
  if (id === undefined) throw new Refusal(ctx.t('dataLoad.pickProject'))
  return id
}

const mayImport = (ctx: CommandContext) => ctx.can('dataLoad.import')
const mayExport = (ctx: CommandContext) => ctx.can('dataLoad.export')
const onScreen = (ctx: CommandContext) => ctx.canOpen('dataLoading')

/** Shows a tab of the screen; another tab is another path, so the one on screen gives way. */
function showTab(ctx: CommandContext, studyId: number, tab: DataLoadTab, toSide = false) {
  const path = screenPath('dataLoading', { id: studyId, tab })
  if (toSide) return ctx.panes.openToSide(path)
  const screen = screenOf(ctx)
  if (screen && screen.studyId === studyId && screen.tab === tab) return
  if (screen && ctx.focus) ctx.panes.close(ctx.focus.path)
  ctx.navigate(path)
}

const ids = z.array(idValue).min(1).max(50)
const list = (values: readonly number[] | undefined) => (values && values.length > 0 ? values.join(',') : undefined)
const recordsChanged = (ctx: CommandContext) => ctx.invalidate('dataLoadRecords')

export const openDataLoading = defineCommand({
  id: 'dataLoad.open',
  title: 'dataLoad.command.open',
  section: 'project',
  keywords: ['data loading', 'import', 'export', 'upload', 'download', 'template', '数据装载', '导入', '导出', '上传', '下载', '模板'],
  hotkey: 'alt+l',
  args: z.object({ id: idValue.optional(), tab: z.enum(dataLoadTabs).optional(), toSide: z.boolean().default(false) }).optional(),
  when: (ctx) => onScreen(ctx) && (mayImport(ctx) || mayExport(ctx)),
  run: (ctx, args) => {
    const id = mustProject(ctx, args?.id)
    const path = screenPath('dataLoading', { id, tab: args?.tab })
    if (args?.toSide) ctx.panes.openToSide(path)
    else ctx.navigate(path)
  },
})

/** With the CRFs: the workbook; without them (the palette): the template tab, where they are chosen. */
export const downloadTemplate = defineCommand({
  id: 'dataLoad.downloadTemplate',
  title: 'dataLoad.command.downloadTemplate',
  section: 'project',
  permission: 'dataLoad.import',
  keywords: ['template', 'excel', 'xlsx', 'crf', 'download', '模板', '下载', '表单'],
  args: z.object({ studyId: idValue.optional(), templateIds: ids.optional(), lang: z.enum(['zh', 'en']).optional() }).optional(),
  when: onScreen,
  run: async (ctx, args) => {
    const studyId = mustProject(ctx, args?.studyId)
    if (!args?.templateIds) return showTab(ctx, studyId, 'template')
    await ctx.api.download(dataLoaderPaths.template, { studyId, templateIds: list(args.templateIds), lang: args.lang ?? ctx.lang })
  },
})

const isFile = (v: unknown): v is File => typeof File !== 'undefined' && v instanceof File
const listenerSchema = z.custom<UploadListener>((v) => typeof v === 'object' && v !== null && 'done' in v && 'refused' in v)

/** The data a refusal carries: the answer of a refused upload, or the earlier upload of the same content. */
function refusalOf(error: unknown): { refused: UploadResult } | { duplicate: DuplicateUpload } | null {
  const data = (error as { envelope?: { data?: unknown } } | null)?.envelope?.data
  const duplicate = duplicateUpload.safeParse(data)
  if (duplicate.success) return { duplicate: duplicate.data }
  const refused = uploadResult.safeParse(data)
  return refused.success ? { refused: refused.data } : null
}

/** A failure the context has already put on screen (the API client's toast). */
const wasShown = (e: unknown) => typeof e === 'object' && e !== null && (e as { shown?: unknown }).shown === true

/** "12 rows: 3 new, 2 changed, 7 unchanged, 1 subject enrolled". */
export function uploadSummary(t: CommandContext['t'], r: UploadResult): string {
  return t('dataLoad.upload.summary', {
    rows: r.rows,
    created: r.created,
    updated: r.updated,
    unchanged: r.unchanged,
    enrolled: r.enrolled,
  })
}

/**
 * Uploads a data file, all or nothing. Without a file it asks for one (on the upload tab, with the
 * tab's choices; elsewhere it shows that tab). The same content uploaded before is only loaded
 * again once the user confirms, naming the earlier upload. A refusal names its bad cells to the
 * listener (the upload panel), else in a toast.
 */
export const uploadData = defineCommand({
  id: 'dataLoad.upload',
  title: 'dataLoad.command.upload',
  section: 'project',
  permission: 'dataLoad.import',
  keywords: ['upload', 'import', 'load', 'xlsx', 'csv', 'redcap', 'excel', '上传', '导入', '装载'],
  args: z
    .object({
      studyId: idValue.optional(),
      file: z.custom<File>(isFile).optional(),
      templateId: idValue.optional(),
      format: z.enum(uploadFormats).optional(),
      enrol: z.boolean().optional(),
      events: z.record(z.string().max(200), z.string().max(200)).optional(),
      again: z.boolean().default(false),
      listener: listenerSchema.optional(),
    })
    .optional(),
  when: onScreen,
  run: async (ctx, args) => {
    const studyId = mustProject(ctx, args?.studyId)
    const screen = screenOf(ctx)
    const choices = screen?.studyId === studyId ? screen.upload() : null
    // The panel's own button brings its listener; the palette needs the panel on screen to ask for a file.
    if (!args?.file && !args?.listener && !choices) return showTab(ctx, studyId, 'upload')
    const file = args?.file ?? (await ctx.ui.pickFile(uploadAccept))
    if (!file) return
    const listener = args?.listener ?? choices?.listener
    const format = args?.format ?? choices?.format ?? 'auto'
    const events = format === 'redcap' ? (args?.events ?? choices?.events) : undefined
    const query = {
      studyId,
      templateId: args?.templateId ?? choices?.templateId,
      format,
      enrol: (args?.enrol ?? choices?.enrol) ? 'true' : undefined,
      events: events && Object.keys(events).length > 0 ? JSON.stringify(events) : undefined,
      again: args?.again ? 'true' : undefined,
      lang: ctx.lang,
    }
    let result: UploadResult
    listener?.start(file.name)
    try {
      // The same content uploaded before is a question the dialog below asks, not a failure to toast too.
      const asks = (data: unknown) => duplicateUpload.safeParse(data).success
      result = await ctx.api
        .upload<unknown>(dataLoaderPaths.upload, file, query, listener?.progress, asks)
        .then((d) => uploadResult.parse(d))
    } catch (e) {
      const refusal = refusalOf(e)
      if (!refusal) {
        listener?.failed(e instanceof Error ? e.message : String(e))
        throw e
      }
      recordsChanged(ctx)
      if ('duplicate' in refusal) {
        const d = refusal.duplicate.duplicateOf
        // Nothing is being written while the question waits: the panel must not say it is.
        listener?.idle()
        const again = await ctx.ui.confirm(
          d.at === null
            ? ctx.t('dataLoad.upload.duplicateOther', { file: d.fileName })
            : ctx.t('dataLoad.upload.duplicate', { file: d.fileName, by: d.by, at: ctx.time(d.at) }),
          ctx.t('dataLoad.upload.duplicateDetail'),
          ctx.t('dataLoad.upload.again'),
          true,
        )
        if (!again) return
        return void (await uploadData.run(ctx, { ...args, studyId, file, again: true, listener }))
      }
      listener?.refused(refusal.refused)
      if (wasShown(e)) throw e
      throw new Refusal(refusedText(ctx.t, refusal.refused))
    }
    recordsChanged(ctx)
    if (result.outcome !== 'loaded') {
      listener?.refused(result)
      throw new Refusal(refusedText(ctx.t, result))
    }
    ctx.invalidate('subjects')
    if (result.enrolled > 0) {
      ctx.invalidate('projects')
      ctx.invalidate('followUp')
    }
    listener?.done(result)
    ctx.ui.toast(uploadSummary(ctx.t, result), 'success')
  },
})

export function refusedText(t: CommandContext['t'], r: UploadResult): string {
  return r.errorsTotal === 1 ? t('dataLoad.upload.refusedOne') : t('dataLoad.upload.refused', { count: r.errorsTotal })
}

/** What a download asks for (contract downloadQuery); the server narrows it to the caller's grants. */
const downloadChoice = z.object({
  format: z.enum(downloadFormats).default('xlsx'),
  templateIds: ids,
  fieldIds: z.array(idValue).max(500).optional(),
  queueIds: z.array(idValue).max(500).optional(),
  centerIds: z.array(idValue).max(500).optional(),
  visitIds: z.array(idValue).max(500).optional(),
  lang: z.enum(['zh', 'en']).optional(),
})

/** With the choice: the file; without it (the palette): the download tab, where it is made. */
export const downloadData = defineCommand({
  id: 'dataLoad.download',
  title: 'dataLoad.command.download',
  section: 'project',
  permission: 'dataLoad.export',
  keywords: ['download data', 'export data', 'download', 'export', 'odm', 'cdisc', 'csv', 'xlsx', '下载', '导出', '数据'],
  args: z.object({ studyId: idValue.optional(), choice: downloadChoice.optional() }).optional(),
  when: onScreen,
  run: async (ctx, args) => {
    const studyId = mustProject(ctx, args?.studyId)
    const c = args?.choice
    if (!c) return showTab(ctx, studyId, 'download')
    await ctx.api.download(dataLoaderPaths.download, {
      studyId,
      format: c.format,
      templateIds: list(c.templateIds),
      fieldIds: list(c.fieldIds),
      queueIds: list(c.queueIds),
      centerIds: list(c.centerIds),
      visitIds: list(c.visitIds),
      lang: c.lang ?? ctx.lang,
    })
    recordsChanged(ctx)
  },
})

const tabOpener = (id: string, title: string, tab: DataLoadTab, keywords: readonly string[], may: (ctx: CommandContext) => boolean) =>
  defineCommand({
    id,
    title,
    section: 'project',
    keywords,
    args: z.object({ studyId: idValue.optional(), toSide: z.boolean().default(false) }).optional(),
    when: (ctx) => onScreen(ctx) && may(ctx),
    run: (ctx, args) => showTab(ctx, mustProject(ctx, args?.studyId), tab, args?.toSide),
  })

export const openUploadRecords = tabOpener(
  'dataLoad.openUploads',
  'dataLoad.command.openUploads',
  'uploads',
  ['upload records', 'history', 'log', '上传记录', '记录'],
  mayImport,
)

export const openDownloadRecords = tabOpener(
  'dataLoad.openDownloads',
  'dataLoad.command.openDownloads',
  'downloads',
  ['download records', 'history', 'log', '下载记录', '记录'],
  mayExport,
)

const recordArgs = z.object({ studyId: idValue.optional(), id: idValue.optional() }).optional()

/** The record named by id, else the selected row of the focused records tab; says so when there is none. */
function recordId(ctx: CommandContext, given: number | undefined, selected: { id: number; available: boolean } | null | undefined) {
  if (given !== undefined) return given
  if (!selected) {
    ctx.ui.toast(ctx.t('dataLoad.records.noSelection'), 'warning')
    return null
  }
  if (!selected.available) {
    ctx.ui.toast(ctx.t('dataLoad.records.expired'), 'warning')
    return null
  }
  return selected.id
}

/** A download's file again (within the retention period). */
export const redownload = defineCommand({
  id: 'dataLoad.redownload',
  title: 'dataLoad.command.redownload',
  section: 'project',
  permission: 'dataLoad.export',
  keywords: ['re-download', 'redownload', 'download again', 'fetch', 'file', '重新下载', '再次下载'],
  args: recordArgs,
  when: (ctx) => screenOf(ctx)?.tab === 'downloads',
  run: async (ctx, args) => {
    const studyId = mustProject(ctx, args?.studyId)
    const id = recordId(ctx, args?.id, screenOf(ctx)?.selectedDownload())
    if (id === null) return
    await ctx.api.download(dataLoaderPaths.downloadFile(id), { studyId })
  },
})

/** An upload's original file again (within the retention period). */
export const fetchUploadFile = defineCommand({
  id: 'dataLoad.fetchUpload',
  title: 'dataLoad.command.fetchUpload',
  section: 'project',
  permission: 'dataLoad.import',
  keywords: ['original', 'file', 'upload', '原文件', '上传文件'],
  args: recordArgs,
  when: (ctx) => screenOf(ctx)?.tab === 'uploads',
  run: async (ctx, args) => {
    const studyId = mustProject(ctx, args?.studyId)
    const id = recordId(ctx, args?.id, screenOf(ctx)?.selectedUpload())
    if (id === null) return
    await ctx.api.download(dataLoaderPaths.uploadFile(id), { studyId })
  },
})

/** A refused upload's error report (row, column, value, message of every bad cell). */
export const fetchUploadReport = defineCommand({
  id: 'dataLoad.fetchReport',
  title: 'dataLoad.command.fetchReport',
  section: 'project',
  permission: 'dataLoad.import',
  keywords: ['error report', 'bad cells', 'errors', '错误报告', '错误'],
  args: recordArgs,
  when: (ctx) => screenOf(ctx)?.tab === 'uploads' || screenOf(ctx)?.tab === 'upload',
  run: async (ctx, args) => {
    const studyId = mustProject(ctx, args?.studyId)
    const selected = screenOf(ctx)?.selectedUpload()
    if (args?.id === undefined && selected && !selected.hasReport) return ctx.ui.toast(ctx.t('dataLoad.records.noReport'), 'warning')
    const id = recordId(ctx, args?.id, selected)
    if (id === null) return
    await ctx.api.download(dataLoaderPaths.uploadReport(id), { studyId })
  },
})

export const dataLoadCommands: AnyCommand[] = [
  openDataLoading,
  downloadTemplate,
  uploadData,
  downloadData,
  openUploadRecords,
  openDownloadRecords,
  redownload,
  fetchUploadFile,
  fetchUploadReport,
]
