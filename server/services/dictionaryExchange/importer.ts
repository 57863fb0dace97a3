import type { IndicatorInput } from '../../../contract/dictionary.ts'
import {
  importLimits,
  type ExchangeFormat,
  type ImportMode,
  type ImportResult,
  type ImportRowOutcome,
} from '../../../contract/dictionaryExchange.ts'
import type { Q } from '../../db/query.ts'
import type { IndicatorRow } from '../../db/tables/dictionary.ts'
import { audit, type Actor } from '../audit.ts'
import type { ServiceContext } from '../context.ts'
import { ServiceError } from '../errors.ts'
import { toIndicator } from '../indicatorView.ts'
import { detectContainer } from './formats.ts'
import { ImportRejected, type Draft, type Notice, type RowProblem, type Table } from './model.ts'
import { isOwnHeader, mapOwnRows } from './ownFormat.ts'
import { readTable } from './readTable.ts'
import { isRedcapHeader } from './redcap.ts'
import { keepRedcapLabels, mapRedcapRows } from './redcapImport.ts'
import {
  diseaseExists,
  indicatorsByCodes,
  indicatorsByIds,
  insertCrf,
  insertIndicators,
  updateIndicators,
} from '../../db/repositories/dictionaryExchange.ts'
import { checkAgainstDb, checkRows, type Candidate } from './validate.ts'
import { isForeignKeyViolation, isUniqueViolation } from '../../db/errors.ts'

export interface ImportRequest {
  filename: string
  data: Buffer
  format?: ExchangeFormat
  diseaseId?: number
  mode: ImportMode
  dryRun: boolean
}

/** The import's answer before its notices and errors are put into words (the route renders them). */
export type ImportOutcome = Omit<ImportResult, 'unmapped' | 'errors'> & { unmapped: Notice[]; errors: RowProblem[] }

/** Ours or REDCap's, by the header row unless the caller said redcap. */
function layoutOf(table: Table, format: ExchangeFormat | undefined): 'own' | 'redcap' {
  if (format === 'redcap') return 'redcap'
  if (isRedcapHeader(table.header) && !isOwnHeader(table.header)) return 'redcap'
  return 'own'
}

/**
 * Updating: the stored value of every field the file has no column for, so that a file of a few
 * columns changes only those; a dependency the file does not state stays as stored.
 */
async function keepAbsent(
  db: Q,
  drafts: readonly Draft[],
  existing: ReadonlyMap<string, IndicatorRow>,
  layout: 'own' | 'redcap',
): Promise<void> {
  const depIds = [...existing.values()].map((r) => r.dependent_field_id).filter((id): id is number => id !== null)
  const depCode = new Map((await indicatorsByIds(db, depIds)).map((r) => [r.id, r.code]))
  for (const d of drafts) {
    const row = typeof d.input.code === 'string' ? existing.get(d.input.code.trim()) : undefined
    if (!row) continue
    const stored = toIndicator(row, false)
    if (layout === 'redcap') keepRedcapLabels(d, stored)
    for (const f of d.absent) {
      if (f === 'dependentFieldId') {
        const code = row.dependent_field_id === null ? undefined : depCode.get(row.dependent_field_id)
        d.dependent = code ? { code, value: row.dependent_value ?? '', by: 'code' } : null
      } else if (f !== 'diseaseId' && f !== 'dependentValue') {
        d.input[f] = stored[f]
      }
    }
  }
}

/** The fields (contract names) an update would change, with the dependent field as an id or, when new, as changed. */
function changedFields(row: IndicatorRow, input: IndicatorInput, dependentId: number | null | 'new'): (keyof IndicatorInput)[] {
  const stored = toIndicator(row, false)
  const out: (keyof IndicatorInput)[] = []
  for (const f of Object.keys(input) as (keyof IndicatorInput)[]) {
    if (f === 'dependentFieldId') {
      if (dependentId !== stored.dependentFieldId) out.push(f)
    } else if (JSON.stringify(input[f]) !== JSON.stringify(stored[f])) out.push(f)
  }
  return out
}

/**
 * All or nothing: the file is read and every row checked (the file alone, then against the
 * database) before one transaction writes the indicators, layer by layer so each dependent field
 * id is known when its row is written, then the CRFs of REDCap forms and the audit row. A preview
 * (dryRun) stops before the transaction and answers what it would do, errors included. A refusal
 * is audited too, outside the (never opened) transaction.
 */
export async function importDictionary(ctx: ServiceContext, actor: Actor, req: ImportRequest): Promise<ImportOutcome> {
  let format: ExchangeFormat | undefined = req.format
  try {
    const container = await detectContainer(req.data, req.filename, req.format)
    const table = await readTable(container, req.data)
    if (table.rows.length === 0) throw new ServiceError('badRequest', 'import.empty')
    const layout = layoutOf(table, req.format)
    format = layout === 'redcap' ? 'redcap' : container
    if (req.diseaseId !== undefined && !(await diseaseExists(ctx.db, req.diseaseId))) {
      throw new ServiceError('notFound', 'disease.notFound', [req.diseaseId])
    }

    const drafts = layout === 'redcap' ? mapRedcapRows(table) : mapOwnRows(table)
    let existing: Map<string, IndicatorRow> | null = null
    if (req.mode === 'upsert') {
      const codes = drafts
        .map((d) => d.input.code)
        .filter((c): c is string => typeof c === 'string')
        .map((c) => c.trim())
      existing = new Map((await indicatorsByCodes(ctx.db, codes)).map((r) => [r.code, r]))
      await keepAbsent(ctx.db, drafts, existing, layout)
    }
    const checked = checkRows(drafts)
    const { plan, problems } = await checkAgainstDb(ctx.db, checked, { diseaseId: req.diseaseId ?? null, existing })
    const all: RowProblem[] = [...checked.problems, ...problems].sort((a, b) => a.row - b.row)
    if (all.length > 0 && !req.dryRun) throw new ImportRejected(all)

    // Each row's fate; an unchanged row is not written at all.
    const idOf = (code: string | null) => (code === null ? null : (existing?.get(code)?.id ?? 'new'))
    const outcomes: ImportRowOutcome[] = []
    const unchanged = new Set<Candidate>()
    const changedOf = new Map<Candidate, (keyof IndicatorInput)[]>()
    for (const c of plan.layers.flat().sort((a, b) => a.draft.row - b.draft.row)) {
      const row = existing?.get(c.input.code)
      if (!row) {
        outcomes.push({ row: c.draft.row, code: c.input.code, status: 'added', fields: [] })
        continue
      }
      const fields = changedFields(row, c.input, c.dependentCode !== null ? idOf(c.dependentCode) : c.dependentId)
      if (fields.length === 0) unchanged.add(c)
      changedOf.set(c, fields)
      outcomes.push({ row: c.draft.row, code: c.input.code, status: fields.length === 0 ? 'unchanged' : 'changed', fields })
    }
    const count = (s: ImportRowOutcome['status']) => outcomes.filter((o) => o.status === s).length

    const now = ctx.now()
    const at = now.toISOString()
    const outcome: ImportOutcome = {
      format,
      mode: req.mode,
      dryRun: req.dryRun,
      encoding: table.encoding,
      rows: table.rows.length,
      indicators: outcomes.length - unchanged.size,
      added: count('added'),
      changed: count('changed'),
      unchanged: count('unchanged'),
      outcomes: outcomes.slice(0, importLimits.maxReported),
      errors: all.slice(0, importLimits.maxReported),
      errorsTotal: all.length,
      templates: plan.crfs.length,
      unmapped: plan.notices.slice(0, importLimits.maxReported),
      unmappedTotal: plan.notices.length,
    }
    if (req.dryRun) return outcome
    try {
      await ctx.db.transaction().execute(async (trx) => {
        const ids = new Map<string, number>([...(existing?.values() ?? [])].map((r) => [r.code, r.id]))
        const dependentOf = (c: Candidate) => (c.dependentCode ? (ids.get(c.dependentCode) ?? null) : c.dependentId)
        for (const layer of plan.layers) {
          const fresh = layer.filter((c) => !existing?.has(c.input.code))
          for (const [code, id] of await insertIndicators(
            trx,
            fresh.map((c) => ({ input: c.input, dependentId: dependentOf(c) })),
            at,
          ))
            ids.set(code, id)
          const updates = layer.filter((c) => existing?.has(c.input.code) && !unchanged.has(c))
          await updateIndicators(
            trx,
            updates.map((c) => ({
              id: existing!.get(c.input.code)!.id,
              input: c.input,
              dependentId: dependentOf(c),
              changed: changedOf.get(c) ?? [],
            })),
            at,
          )
        }
        for (const crf of plan.crfs) {
          const items = crf.items.map((i) => ({
            sectionKey: i.sectionKey,
            position: i.position,
            indicatorId: ids.get(i.code)!,
            required: i.required,
          }))
          await insertCrf(trx, { ...crf, items }, at)
        }
        await audit(trx, actor, 'dictionary.import', 'ok', now, {
          file: req.filename,
          format,
          mode: req.mode,
          encoding: table.encoding,
          rows: outcome.rows,
          indicators: outcome.indicators,
          added: outcome.added,
          changed: outcome.changed,
          templates: outcome.templates,
          unmapped: outcome.unmappedTotal,
        })
      })
    } catch (err) {
      // Someone added one of these codes (or removed a dependent field) since the check: retry.
      if (isUniqueViolation(err) || isForeignKeyViolation(err)) throw new ServiceError('conflict', 'import.conflict')
      throw err
    }
    return outcome
  } catch (err) {
    if (err instanceof ServiceError && !req.dryRun) {
      const detail: Record<string, unknown> = { file: req.filename, format: format ?? null, reason: err.key }
      if (err instanceof ImportRejected) {
        detail.errors = err.problems.length
        detail.rows = new Set(err.problems.map((p) => p.row)).size
      }
      await audit(ctx.db, actor, 'dictionary.import', 'denied', ctx.now(), detail)
    }
    throw err
  }
}
