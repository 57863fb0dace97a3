import { importLimits, type ExchangeFormat, type ImportResult } from '../../../contract/dictionaryExchange.ts'
import { audit, type Actor } from '../audit.ts'
import type { ServiceContext } from '../context.ts'
import { ServiceError } from '../errors.ts'
import { detectContainer } from './formats.ts'
import { ImportRejected, type Notice, type RowProblem, type Table } from './model.ts'
import { isOwnHeader, mapOwnRows } from './ownFormat.ts'
import { readTable } from './readTable.ts'
import { isRedcapHeader } from './redcap.ts'
import { mapRedcapRows } from './redcapImport.ts'
import { diseaseExists, insertCrf, insertIndicators } from '../../db/repositories/dictionaryExchange.ts'
import { checkAgainstDb, checkRows } from './validate.ts'

export interface ImportRequest {
  filename: string
  data: Buffer
  format?: ExchangeFormat
  diseaseId?: number
}

/** The import's answer before its notices are put into words (the route renders them). */
export type ImportOutcome = Omit<ImportResult, 'unmapped'> & { unmapped: Notice[] }

/** Ours or REDCap's, by the header row unless the caller said redcap. */
function layoutOf(table: Table, format: ExchangeFormat | undefined): 'own' | 'redcap' {
  if (format === 'redcap') return 'redcap'
  if (isRedcapHeader(table.header) && !isOwnHeader(table.header)) return 'redcap'
  return 'own'
}

const isUniqueViolation = (err: unknown) => {
  const e = err as { code?: unknown } | null
  return e?.code === '23505' || e?.code === 'SQLITE_CONSTRAINT_UNIQUE' || e?.code === '23503' || e?.code === 'SQLITE_CONSTRAINT_FOREIGNKEY'
}

/**
 * All or nothing: the file is read and every row checked (the file alone, then against the
 * database) before one transaction writes the indicators, layer by layer so each dependent field
 * id is known when its row is inserted, then the CRFs of REDCap forms and the audit row.
 * A refusal is audited too, outside the (never opened) transaction.
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
    const checked = checkRows(drafts)
    const { plan, problems } = await checkAgainstDb(ctx.db, checked, { diseaseId: req.diseaseId ?? null })
    const all: RowProblem[] = [...checked.problems, ...problems].sort((a, b) => a.row - b.row)
    if (all.length > 0) throw new ImportRejected(all)

    const now = ctx.now()
    const at = now.toISOString()
    const outcome: ImportOutcome = {
      format,
      encoding: table.encoding,
      rows: table.rows.length,
      indicators: plan.layers.reduce((n, l) => n + l.length, 0),
      templates: plan.crfs.length,
      unmapped: plan.notices.slice(0, importLimits.maxReported),
      unmappedTotal: plan.notices.length,
    }
    try {
      await ctx.db.transaction().execute(async (trx) => {
        const ids = new Map<string, number>()
        for (const layer of plan.layers) {
          const rows = layer.map((c) => ({ input: c.input, dependentId: c.dependentCode ? (ids.get(c.dependentCode) ?? null) : c.dependentId }))
          for (const [code, id] of await insertIndicators(trx, rows, at)) ids.set(code, id)
        }
        for (const crf of plan.crfs) {
          const items = crf.items.map((i) => ({ sectionKey: i.sectionKey, position: i.position, indicatorId: ids.get(i.code)!, required: i.required }))
          await insertCrf(trx, { ...crf, items }, at)
        }
        await audit(trx, actor, 'dictionary.import', 'ok', now, {
          file: req.filename,
          format,
          encoding: table.encoding,
          rows: outcome.rows,
          indicators: outcome.indicators,
          templates: outcome.templates,
          unmapped: outcome.unmappedTotal,
        })
      })
    } catch (err) {
      // Someone added one of these codes (or removed a dependent field) since the check: retry.
      if (isUniqueViolation(err)) throw new ServiceError('conflict', 'import.conflict')
      throw err
    }
    return outcome
  } catch (err) {
    if (err instanceof ServiceError) {
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
