import { Readable } from 'node:stream'
import type { Choice } from '../../../contract/dictionary.ts'
import { ownColumns, type ExportQuery } from '../../../contract/dictionaryExchange.ts'
import type { IndicatorRow } from '../../db/tables/dictionary.ts'
import type { Q } from '../../db/query.ts'
import { audit, type Actor } from '../audit.ts'
import type { ServiceContext } from '../context.ts'
import { ServiceError } from '../errors.ts'
import { toIndicator } from '../indicatorView.ts'
import { csvLine, utf8Bom } from './csv.ts'
import { ownRow } from './ownFormat.ts'
import { redcapFormName, redcapHeader, toRedcapRow, type DependentInfo } from './redcapExport.ts'
import {
  crfExists,
  crfLayouts,
  diseaseExists,
  diseaseNames,
  indicatorPage,
  indicatorsByIds,
  type IndicatorFilter,
} from '../../db/repositories/dictionaryExchange.ts'
import { xlsxStream, type XlsxCell } from './xlsx.ts'

/**
 * Exports are streamed files (DESIGN §8: no 100,000-row JSON): indicators are read in keyset
 * batches and written as they come. CSV is UTF-8 with a BOM so Excel, Chinese Excel included,
 * opens it as UTF-8.
 */

export interface ExportFile {
  filename: string
  contentType: string
  body: Readable
}

const batchSize = 1000

type Row = IndicatorRow

/** The rows a batch depends on, looked up once per batch. */
async function dependentsOf(db: Q, rows: readonly Row[]): Promise<Map<number, Row>> {
  const known = new Map(rows.map((r) => [r.id, r]))
  const missing = rows.map((r) => r.dependent_field_id).filter((id): id is number => id !== null && !known.has(id))
  for (const r of await indicatorsByIds(db, missing)) known.set(r.id, r)
  return known
}

/** Batches of the filtered indicators: by id, or in the CRF's layout order when one is named. */
async function* batches(db: Q, filter: IndicatorFilter, templateId: number | undefined): AsyncGenerator<Row[]> {
  if (templateId !== undefined) {
    const [layout] = await crfLayouts(db, templateId)
    const ids = [...new Set(layout?.items.map((i) => i.indicatorId) ?? [])]
    for (let i = 0; i < ids.length; i += batchSize) {
      const part = ids.slice(i, i + batchSize)
      const byId = new Map((await indicatorsByIds(db, part, filter)).map((r) => [r.id, r]))
      yield part.map((id) => byId.get(id)).filter((r): r is Row => r !== undefined)
    }
    return
  }
  let after = 0
  for (;;) {
    const rows = await indicatorPage(db, filter, after, batchSize)
    if (rows.length === 0) return
    yield rows
    after = rows[rows.length - 1]!.id
  }
}

async function* ownRows(db: Q, filter: IndicatorFilter, templateId: number | undefined): AsyncGenerator<XlsxCell[]> {
  const diseases = await diseaseNames(db)
  for await (const rows of batches(db, filter, templateId)) {
    const deps = await dependentsOf(db, rows)
    for (const r of rows) {
      const dep = r.dependent_field_id === null ? null : (deps.get(r.dependent_field_id)?.code ?? null)
      yield ownRow(toIndicator(r, false), dep, r.disease_id === null ? null : (diseases.get(r.disease_id) ?? null))
    }
  }
}

const dependentInfo = (r: Row | undefined): DependentInfo | null =>
  r ? { code: r.code, type: r.type as DependentInfo['type'], options: JSON.parse(r.options) as Choice[], comment: r.comment } : null

/**
 * One REDCap row per indicator per CRF holding it (its latest version, in layout order), then the
 * indicators in no CRF under the form 'dictionary'. REDCap wants each variable once per project:
 * an indicator placed in two CRFs is written twice (our import reads that back as one indicator in
 * two CRFs); export one CRF (templateId) for a file REDCap itself accepts in that case.
 */
async function* redcapRows(db: Q, filter: IndicatorFilter, templateId: number | undefined): AsyncGenerator<string[]> {
  const layouts = await crfLayouts(db, templateId)
  const forms = new Set<string>()
  const placed = new Set<number>()
  for (const crf of layouts) {
    const form = redcapFormName(crf.name, crf.id, forms)
    const titles = new Map(crf.sections.map((s) => [s.key, s.title]))
    let lastSection: string | null = null
    for (let i = 0; i < crf.items.length; i += batchSize) {
      const part = crf.items.slice(i, i + batchSize)
      const rows = await indicatorsByIds(
        db,
        part.map((p) => p.indicatorId),
        filter,
      )
      const byId = new Map(rows.map((r) => [r.id, r]))
      const deps = await dependentsOf(db, rows)
      for (const item of part) {
        const r = byId.get(item.indicatorId)
        if (!r) continue
        placed.add(r.id)
        // REDCap writes a section header on the first field of its section.
        const opens = item.sectionKey !== lastSection
        lastSection = item.sectionKey
        const place = { form, sectionHeader: opens ? (titles.get(item.sectionKey) ?? '') : '', required: item.required }
        yield toRedcapRow(
          toIndicator(r, false),
          place,
          r.dependent_field_id === null ? null : dependentInfo(deps.get(r.dependent_field_id)),
        )
      }
    }
  }
  if (templateId !== undefined) return
  const rest = redcapFormName('dictionary', 0, forms)
  // Here `layouts` holds every CRF: a member the filter kept is already written under its form.
  for (const crf of layouts) for (const item of crf.items) placed.add(item.indicatorId)
  for await (const rows of batches(db, filter, undefined)) {
    const deps = await dependentsOf(db, rows)
    for (const r of rows) {
      if (placed.has(r.id)) continue
      const place = { form: rest, sectionHeader: '', required: false }
      yield toRedcapRow(toIndicator(r, false), place, r.dependent_field_id === null ? null : dependentInfo(deps.get(r.dependent_field_id)))
    }
  }
}

/** CSV text in pieces of about a batch, so the stream is neither chatty nor one big string. */
async function* csvChunks(
  header: readonly string[],
  rows: AsyncIterable<readonly XlsxCell[]>,
  verbatim?: (column: number, text: string) => boolean,
): AsyncGenerator<string> {
  let buf = utf8Bom + csvLine(header)
  let n = 0
  for await (const r of rows) {
    buf += csvLine(r, verbatim)
    if (++n % batchSize === 0) {
      yield buf
      buf = ''
    }
  }
  if (buf) yield buf
}

/**
 * REDCap reads action tags (@DEFAULT='2') only as the Field Annotation's first characters, so a
 * cell that starts with one stays as it is: a tag name runs nothing in a spreadsheet. Every other
 * cell is neutralised.
 */
const annotationColumn = redcapHeader.indexOf('Field Annotation')
const redcapActionTags = (column: number, text: string) => column === annotationColumn && /^@[A-Z][A-Z0-9_-]*(=|\s|$)/.test(text)

const stamp = (d: Date) => d.toISOString().slice(0, 19).replace(/[-:]/g, '').replace('T', '-')

export async function exportDictionary(ctx: ServiceContext, actor: Actor, q: ExportQuery): Promise<ExportFile> {
  if (q.diseaseId !== undefined && !(await diseaseExists(ctx.db, q.diseaseId)))
    throw new ServiceError('notFound', 'disease.notFound', [q.diseaseId])
  if (q.templateId !== undefined && !(await crfExists(ctx.db, q.templateId)))
    throw new ServiceError('notFound', 'template.notFound', [q.templateId])
  const filter: IndicatorFilter = {
    diseaseId: q.diseaseId,
    indexClass: q.indexClass,
    category: q.category,
    type: q.type,
    status: q.status,
    q: q.q,
  }
  const now = ctx.now()
  const filters = Object.fromEntries(Object.entries({ ...filter, templateId: q.templateId }).filter(([, v]) => v !== undefined))
  await audit(ctx.db, actor, 'dictionary.export', 'ok', now, { format: q.format, filters })

  if (q.format === 'redcap') {
    return {
      filename: `redcap-data-dictionary-${stamp(now)}.csv`,
      contentType: 'text/csv; charset=utf-8',
      body: Readable.from(csvChunks(redcapHeader, redcapRows(ctx.db, filter, q.templateId), redcapActionTags), { objectMode: false }),
    }
  }
  if (q.format === 'csv') {
    return {
      filename: `dictionary-${stamp(now)}.csv`,
      contentType: 'text/csv; charset=utf-8',
      body: Readable.from(csvChunks(ownColumns, ownRows(ctx.db, filter, q.templateId)), { objectMode: false }),
    }
  }
  return {
    filename: `dictionary-${stamp(now)}.xlsx`,
    contentType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    body: xlsxStream('dictionary', ownColumns, ownRows(ctx.db, filter, q.templateId)),
  }
}
