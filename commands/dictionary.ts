import { z } from 'zod'
import { dictionaryPaths, diseaseInput, indexCategories, indicatorInput, indicatorTypes } from '../contract/dictionary.ts'
import * as api from '../contract/dictionaryEndpoints.ts'
import { exchangeFormats, importFailure, importModes, type ImportResult } from '../contract/dictionaryExchange.ts'
import { indicatorProblems } from '../contract/indicatorRules.ts'
import { screenPath } from '../contract/screenPaths.ts'
import type { CommandContext } from './context.ts'
import { Refusal, defineCommand, type AnyCommand } from './define.ts'

export const indicatorPath = (id: number) => screenPath('fields', { id })
export const diseaseDictionaryPath = (id: number) => screenPath('dictionaryList', { diseaseId: id })

const signedIn = (ctx: CommandContext) => ctx.signedIn
const id = z.number().int().positive()

/** A failure the context has already put on screen (the API client's toast). */
const wasShown = (e: unknown) => typeof e === 'object' && e !== null && (e as { shown?: unknown }).shown === true

/** What reloads after a change of the dictionary: the lists and the disease counts. */
function changed(ctx: CommandContext, ...more: string[]) {
  ctx.invalidate('indicators')
  ctx.invalidate('diseases')
  for (const r of more) ctx.invalidate(r)
}

/** The first refused rule of an indicator, in the words the server would use. */
export function indicatorProblemText(ctx: CommandContext, input: z.infer<typeof indicatorInput>): string | null {
  const p = indicatorProblems(input)[0]
  if (!p) return null
  return `${ctx.t(`indicator.field.${p.field}`)}: ${ctx.t(`indicator.rule.${p.key}`, p.params)}`
}

export const newIndicator = defineCommand({
  id: 'dictionary.newIndicator',
  title: 'dictionary.command.newIndicator',
  section: 'dictionary',
  permission: 'dictionary.create',
  keywords: ['new', 'create', 'indicator', 'field', 'index', '新建', '指标', '字段'],
  hotkey: 'alt+shift+i',
  run: (ctx) => ctx.navigate(screenPath('createFields', {})),
})

export const findIndicator = defineCommand({
  id: 'dictionary.findIndicator',
  title: 'dictionary.command.findIndicator',
  section: 'dictionary',
  permission: 'dictionary.view',
  keywords: ['find', 'search', 'indicator', 'code', '查找', '搜索', '指标', '编码'],
  hotkey: 'alt+i',
  run: (ctx) => ctx.ui.openPalette('indicators'),
})

/** Opens an indicator's form (a row of the list, a palette record). */
export const openIndicator = defineCommand({
  id: 'dictionary.openIndicator',
  title: 'dictionary.command.openIndicator',
  section: 'dictionary',
  permission: 'dictionary.view',
  args: z.object({ id, toSide: z.boolean().default(false) }),
  run: (ctx, args) => (args.toSide ? ctx.panes.openToSide(indicatorPath(args.id)) : ctx.navigate(indicatorPath(args.id))),
})

/**
 * Saves the form of a new (no id) or an existing indicator. The rules of contract/indicatorRules
 * are checked first, so nothing the server would refuse is sent; on success the lists reload and
 * a new indicator's form closes onto the dictionary list.
 */
export const saveIndicator = defineCommand({
  id: 'dictionary.saveIndicator',
  title: 'dictionary.command.saveIndicator',
  section: 'dictionary',
  permission: 'dictionary.edit',
  args: z.object({ id: id.optional(), input: indicatorInput }),
  run: async (ctx, { id: existing, input }) => {
    const problem = indicatorProblemText(ctx, input)
    if (problem) throw new Refusal(problem)
    if (existing === undefined) {
      await ctx.api.call(api.createIndicator, input)
      ctx.ui.toast(ctx.t('message.saveSuccess'), 'success')
      changed(ctx)
      if (ctx.focus?.screen === 'createFields') ctx.panes.close(ctx.path)
      ctx.navigate(screenPath('dictionaryList', {}))
    } else {
      await ctx.api.call(api.updateIndicator, { id: existing, input })
      ctx.ui.toast(ctx.t('message.editSuccess'), 'success')
      changed(ctx)
    }
  },
})

export const setIndicatorStatus = defineCommand({
  id: 'dictionary.setIndicatorStatus',
  title: 'dictionary.command.setIndicatorStatus',
  section: 'dictionary',
  permission: 'dictionary.edit',
  args: z.object({ id, status: z.union([z.literal(0), z.literal(1)]) }),
  run: async (ctx, args) => {
    try {
      await ctx.api.call(api.setIndicatorStatus, args)
    } catch (e) {
      // The API client already showed the server's reason; say it once.
      if (wasShown(e)) throw e
      throw new Error(`${ctx.t('message.updateStatusFailed')}: ${e instanceof Error ? e.message : ''}`)
    }
    ctx.ui.toast(ctx.t('message.updateStatusSuccess'), 'success')
    changed(ctx)
  },
})

/** SPEC §8 delete confirmation; a refusal (e.g. a form holds it) ends in the server's message. */
export const deleteIndicator = defineCommand({
  id: 'dictionary.deleteIndicator',
  title: 'dictionary.command.deleteIndicator',
  section: 'dictionary',
  permission: 'dictionary.delete',
  args: z.object({ id }),
  run: async (ctx, args) => {
    if (!(await ctx.ui.confirm(ctx.t('deletion.confirm'), ctx.t('deletion.irreversible')))) return
    await ctx.api.call(api.deleteIndicator, { id: args.id })
    ctx.ui.toast(ctx.t('deletion.success'), 'success')
    changed(ctx)
    if (ctx.path === indicatorPath(args.id)) ctx.panes.close(ctx.path)
  },
})

export const saveDisease = defineCommand({
  id: 'dictionary.saveDisease',
  title: 'dictionary.command.saveDisease',
  section: 'dictionary',
  permission: 'dictionary.edit',
  args: z.object({ id: id.optional(), input: diseaseInput }),
  run: async (ctx, { id: existing, input }) => {
    if (existing === undefined) await ctx.api.call(api.createDisease, input)
    else await ctx.api.call(api.updateDisease, { id: existing, input })
    ctx.ui.toast(ctx.t(existing === undefined ? 'message.saveSuccess' : 'message.editSuccess'), 'success')
    ctx.invalidate('diseases')
  },
})

/** SPEC §8: a disease with related projects cannot be deleted (the server says so). */
export const deleteDisease = defineCommand({
  id: 'dictionary.deleteDisease',
  title: 'dictionary.command.deleteDisease',
  section: 'dictionary',
  permission: 'dictionary.delete',
  args: z.object({ id }),
  run: async (ctx, args) => {
    if (!(await ctx.ui.confirm(ctx.t('deletion.confirm'), ctx.t('deletion.irreversible')))) return
    await ctx.api.call(api.deleteDisease, { id: args.id })
    ctx.ui.toast(ctx.t('deletion.success'), 'success')
    changed(ctx)
  },
})

/** A disease's indicators: the system index filtered by it, in a tab of its own. */
export const openDisease = defineCommand({
  id: 'dictionary.openDisease',
  title: 'dictionary.command.openDisease',
  section: 'dictionary',
  permission: 'dictionary.view',
  args: z.object({ id, toSide: z.boolean().default(false) }),
  run: (ctx, args) => (args.toSide ? ctx.panes.openToSide(diseaseDictionaryPath(args.id)) : ctx.navigate(diseaseDictionaryPath(args.id))),
})

export type ImportFailureData = z.infer<typeof importFailure>

/** How the import dialog hears the outcome; the palette and the hotkey need no listener. */
export interface ImportListener {
  done(result: ImportResult): void
  refused(failure: ImportFailureData): void
}

const isFile = (v: unknown): v is File => typeof File !== 'undefined' && v instanceof File

export const importAccept = '.xlsx,.csv,text/csv,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'

/** The per-row report of a refused import, when the failure carries one. */
export function importFailureOf(error: unknown): ImportFailureData | null {
  const data = (error as { envelope?: { data?: unknown } } | null)?.envelope?.data
  const parsed = importFailure.safeParse(data)
  return parsed.success ? parsed.data : null
}

/**
 * Imports a dictionary file (ours as xlsx/CSV, or a REDCap data dictionary). All or nothing:
 * a refusal names the rows. `mode: 'upsert'` updates the codes already here; `dryRun` asks for the
 * preview only. With a listener (the import dialog) the outcome is the dialog's to show; without
 * one (palette, hotkey) the counts are toasted.
 */
export const importDictionary = defineCommand({
  id: 'dictionary.import',
  title: 'dictionary.command.import',
  section: 'dictionary',
  permission: 'dictionary.import',
  keywords: ['import', 'upload', 'dictionary', 'redcap', 'xlsx', 'csv', 'excel', '导入', '上传', '数据字典'],
  args: z
    .object({
      file: z.custom<File>(isFile).optional(),
      format: z.enum(exchangeFormats).optional(),
      diseaseId: id.optional(),
      mode: z.enum(importModes).default('add'),
      dryRun: z.boolean().default(false),
      listener: z.custom<ImportListener>((v) => typeof v === 'object' && v !== null && 'done' in v && 'refused' in v).optional(),
    })
    .optional(),
  when: signedIn,
  run: async (ctx, args) => {
    const file = args?.file ?? (await ctx.ui.pickFile(importAccept))
    if (!file) return
    let result: ImportResult
    const mode = args?.mode ?? 'add'
    try {
      result = await ctx.api.upload<ImportResult>(dictionaryPaths.import, file, {
        format: args?.format,
        diseaseId: args?.diseaseId,
        mode,
        dryRun: args?.dryRun ? 'true' : undefined,
      })
    } catch (e) {
      const failure = importFailureOf(e)
      if (!failure) throw e
      args?.listener?.refused(failure)
      // The API client already showed the server's message (the count); say it once.
      if (wasShown(e)) throw e
      throw new Refusal(ctx.t(failure.total === 1 ? 'dictionary.import.refusedOne' : 'dictionary.import.refused', { count: failure.total }))
    }
    if (!result.dryRun) changed(ctx, ...(result.templates > 0 ? ['templates'] : []))
    if (args?.listener) {
      args.listener.done(result)
      return
    }
    const counts =
      mode === 'upsert'
        ? ctx.t('dictionary.import.doneUpsert', {
            added: result.added,
            changed: result.changed,
            unchanged: result.unchanged,
            templates: result.templates,
          })
        : ctx.t('dictionary.import.done', { indicators: result.indicators, templates: result.templates })
    const n = result.unmappedTotal
    const unmapped =
      n === 0 ? '' : ` ${n === 1 ? ctx.t('dictionary.import.unmappedCountOne') : ctx.t('dictionary.import.unmappedCount', { count: n })}`
    ctx.ui.toast(counts + unmapped, result.unmappedTotal > 0 ? 'warning' : 'success')
  },
})

const exportFilters = z
  .object({
    diseaseId: id.optional(),
    indexClass: z.string().max(60).optional(),
    category: z.enum(indexCategories).optional(),
    type: z.enum(indicatorTypes).optional(),
    status: z.union([z.literal(0), z.literal(1)]).optional(),
    q: z.string().max(100).optional(),
  })
  .optional()

/** Downloads the dictionary (or the filtered part of it) as xlsx, CSV or a REDCap dictionary. */
export const exportDictionary = defineCommand({
  id: 'dictionary.export',
  title: 'dictionary.command.export',
  section: 'dictionary',
  permission: 'dictionary.export',
  keywords: ['export', 'download', 'dictionary', 'redcap', 'xlsx', 'csv', 'excel', '导出', '下载', '数据字典'],
  args: z.object({ format: z.enum(exchangeFormats).default('xlsx'), filters: exportFilters }).optional(),
  when: signedIn,
  run: async (ctx, args) => {
    const query = { format: args?.format ?? 'xlsx', ...(args?.filters ?? {}) }
    await ctx.api.download(dictionaryPaths.export, query)
  },
})

export const dictionaryCommands: AnyCommand[] = [
  newIndicator,
  findIndicator,
  importDictionary,
  exportDictionary,
  openIndicator,
  saveIndicator,
  setIndicatorStatus,
  deleteIndicator,
  saveDisease,
  deleteDisease,
  openDisease,
]
