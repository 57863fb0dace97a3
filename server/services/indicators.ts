import type { Choice, Indicator, IndicatorInput, IndicatorListQuery, IndicatorPage } from '../../contract/dictionary.ts'
import { hasChoice, indicatorProblems, type Problem, type ProblemKey } from '../../contract/indicatorRules.ts'
import type { Q } from '../db/query.ts'
import { findDiseaseById } from '../db/repositories/diseases.ts'
import {
  countIndicatorRows,
  deleteIndicatorRow,
  findDependents,
  findIndicatorByCode,
  findIndicatorById,
  indicatorInAnyVersion,
  indicatorSortColumns,
  indicatorsInPublishedVersions,
  insertIndicator,
  listIndicatorRows,
  setIndicatorStatusRow,
  updateIndicatorRow,
} from '../db/repositories/indicators.ts'
import type { ListScope } from '../db/scope.ts'
import type { IndicatorRow } from '../db/tables/dictionary.ts'
import { message, type Lang, type MessageKey } from '../i18n/messages.ts'
import { audit, type Actor } from './audit.ts'
import type { ServiceContext } from './context.ts'
import { ServiceError } from './errors.ts'
import { decodeCursor, encodeCursor } from './keysetCursor.ts'
import { toIndicator } from './indicatorView.ts'
import { isUniqueViolation } from '../db/errors.ts'

// ---------------------------------------------------------------------------------------------
// The pure rules of contract/indicatorRules.ts, refused with the field they concern

const fieldKey = (f: keyof IndicatorInput) => `indicatorField.${f}` satisfies MessageKey
const ruleKey = (k: ProblemKey) => `rule.${k}` satisfies MessageKey

/**
 * An indicator broke one or more rules of `indicatorProblems`. The message names each field in
 * the caller's language ('最小值: 最小值1不能大于最大值0'), rendered by the error plugin.
 */
export class IndicatorRuleError extends ServiceError {
  constructor(readonly problems: readonly Problem[]) {
    const first = problems[0]
    super('badRequest', first ? ruleKey(first.key) : 'field.invalid', first ? first.params : ['indicator'])
  }

  override describe(lang: Lang): string {
    return describeProblems(lang, this.problems)
  }
}

/** 'field: rule' for each problem, in order, joined by '; '. */
export function describeProblems(lang: Lang, problems: readonly Problem[]): string {
  return problems.map((p) => `${message(lang, fieldKey(p.field))}: ${message(lang, ruleKey(p.key), p.params)}`).join('; ')
}

// ---------------------------------------------------------------------------------------------
// Reading

async function view(db: Q, row: IndicatorRow): Promise<Indicator> {
  const inUse = await indicatorsInPublishedVersions(db, [row.id])
  return toIndicator(row, inUse.has(row.id))
}

async function mustFind(db: Q, id: number): Promise<IndicatorRow> {
  const row = await findIndicatorById(db, id)
  if (!row) throw new ServiceError('notFound', 'indicator.notFound', [id])
  return row
}

export async function getIndicator(ctx: ServiceContext, id: number): Promise<Indicator> {
  return view(ctx.db, await mustFind(ctx.db, id))
}

/**
 * One page of the dictionary, sorted and filtered on the server, keyset-paged (never OFFSET).
 * `total` counts every row the filters match, so the table knows its height; it is the one
 * part whose cost grows with the table (bench/dictionary.ts measures it).
 */
export async function listIndicators(ctx: ServiceContext, q: IndicatorListQuery, scope: ListScope): Promise<IndicatorPage> {
  const filter = {
    diseaseId: q.diseaseId,
    indexClass: q.indexClass,
    category: q.category,
    type: q.type,
    status: q.status,
    q: q.q === '' ? undefined : q.q,
  }
  const sort = indicatorSortColumns[q.sort]
  const after = q.after === undefined ? null : decodeCursor(q.after)
  // One row more than asked tells whether a next page exists without a second query.
  const rows = await listIndicatorRows(ctx.db, { filter, scope, sort, order: q.order, after, limit: q.limit + 1 })
  const more = rows.length > q.limit
  const page = more ? rows.slice(0, q.limit) : rows
  const [inUse, total] = await Promise.all([
    indicatorsInPublishedVersions(
      ctx.db,
      page.map((r) => r.id),
    ),
    countIndicatorRows(ctx.db, filter, scope),
  ])
  const last = page[page.length - 1]
  return {
    rows: page.map((r) => toIndicator(r, inUse.has(r.id))),
    next: more && last ? encodeCursor(last[sort], last.id) : null,
    total,
  }
}

// ---------------------------------------------------------------------------------------------
// The rules that need the database

/** Longest dependency chain walked before it is taken for a cycle already in the data. */
const maxChainLength = 10_000

/**
 * Every rule of an indicator about to be written (`self` is the stored row on update, null on
 * create): the pure rules first, then code, disease, dependent field, frozen type and the values
 * its own dependents rely on. Throws the first refusal; run it inside the write's transaction.
 */
export async function assertIndicatorRules(db: Q, f: IndicatorInput, self: IndicatorRow | null): Promise<void> {
  const problems = indicatorProblems(f)
  if (problems.length > 0) throw new IndicatorRuleError(problems)

  const sameCode = await findIndicatorByCode(db, f.code)
  if (sameCode && sameCode.id !== self?.id) throw new ServiceError('conflict', 'rule.exists', [f.code])

  if (f.diseaseId !== null && !(await findDiseaseById(db, f.diseaseId)))
    throw new ServiceError('badRequest', 'disease.notFound', [f.diseaseId])

  if (f.dependentFieldId !== null) {
    if (f.dependentFieldId === self?.id) throw new ServiceError('badRequest', 'indicator.dependentSelf')
    const dep = await findIndicatorById(db, f.dependentFieldId)
    if (!dep) throw new ServiceError('badRequest', 'indicator.dependentMissing', [f.dependentFieldId])
    const options = JSON.parse(dep.options) as Choice[]
    if (options.length > 0 && !hasChoice(options, f.dependentValue ?? ''))
      throw new ServiceError('badRequest', 'indicator.dependentValueNotOption')
    // A new indicator has no dependents yet, so only an update can close a cycle: follow the
    // chain from the new dependent field and refuse when it comes back to this indicator,
    // naming the codes around the cycle ('A → B → C → A').
    if (self) {
      const chain = [f.code, dep.code]
      const seen = new Set<number>([dep.id])
      let next: number | null = dep.dependent_field_id
      while (next !== null && !seen.has(next) && seen.size < maxChainLength) {
        if (next === self.id) throw new ServiceError('badRequest', 'indicator.dependentCycle', [[...chain, f.code].join(' → ')])
        seen.add(next)
        const row = await findIndicatorById(db, next)
        chain.push(row?.code ?? String(next))
        next = row?.dependent_field_id ?? null
      }
    }
  }

  if (self) {
    if (self.type !== f.type || self.data_type !== f.dataType) {
      const published = await indicatorsInPublishedVersions(db, [self.id])
      if (published.has(self.id)) throw new ServiceError('conflict', 'indicator.typeFrozen')
    }
    // Indicators shown when this one has a given option must still find that option.
    if (f.options.length > 0) {
      for (const d of await findDependents(db, self.id)) {
        if (d.dependent_value !== null && !hasChoice(f.options, d.dependent_value)) {
          throw new ServiceError('conflict', 'indicator.dependentValueRemoved', [d.code, d.dependent_value])
        }
      }
    }
  }
}

/** A concurrent writer took the code between our check and our write (PostgreSQL). */
function codeTaken(err: unknown, code: string): never {
  if (isUniqueViolation(err)) throw new ServiceError('conflict', 'rule.exists', [code])
  throw err
}

// ---------------------------------------------------------------------------------------------
// Writing: each one transaction, with its audit row in it

export async function createIndicator(ctx: ServiceContext, actor: Actor, f: IndicatorInput): Promise<Indicator> {
  const now = ctx.now()
  try {
    return await ctx.db.transaction().execute(async (trx) => {
      await assertIndicatorRules(trx, f, null)
      const id = await insertIndicator(trx, f, now.toISOString())
      await audit(trx, actor, 'indicator.create', 'ok', now, { id, code: f.code }, { type: 'indicator', id })
      return view(trx, await mustFind(trx, id))
    })
  } catch (err) {
    return codeTaken(err, f.code)
  }
}

export async function updateIndicator(ctx: ServiceContext, actor: Actor, id: number, f: IndicatorInput): Promise<Indicator> {
  const now = ctx.now()
  try {
    return await ctx.db.transaction().execute(async (trx) => {
      const self = await mustFind(trx, id)
      await assertIndicatorRules(trx, f, self)
      await updateIndicatorRow(trx, id, f, now.toISOString())
      await audit(
        trx,
        actor,
        'indicator.update',
        'ok',
        now,
        { id, code: f.code, ...(self.code !== f.code ? { oldCode: self.code } : {}) },
        { type: 'indicator', id },
      )
      return view(trx, await mustFind(trx, id))
    })
  } catch (err) {
    return codeTaken(err, f.code)
  }
}

export async function setIndicatorStatus(ctx: ServiceContext, actor: Actor, id: number, status: 0 | 1): Promise<Indicator> {
  const now = ctx.now()
  return ctx.db.transaction().execute(async (trx) => {
    const self = await mustFind(trx, id)
    await setIndicatorStatusRow(trx, id, status, now.toISOString())
    await audit(
      trx,
      actor,
      'indicator.status',
      'ok',
      now,
      { id, code: self.code, from: self.status, to: status },
      { type: 'indicator', id },
    )
    return view(trx, await mustFind(trx, id))
  })
}

/**
 * Refused (409) while another indicator depends on it or any template version holds it; a
 * published one says 'prohibit delete', since data is entered against it.
 */
export async function deleteIndicator(ctx: ServiceContext, actor: Actor, id: number): Promise<void> {
  const now = ctx.now()
  await ctx.db.transaction().execute(async (trx) => {
    const self = await mustFind(trx, id)
    if ((await findDependents(trx, id)).length > 0) throw new ServiceError('conflict', 'indicator.hasDependents')
    if ((await indicatorsInPublishedVersions(trx, [id])).has(id)) throw new ServiceError('conflict', 'indicator.published')
    if (await indicatorInAnyVersion(trx, id)) throw new ServiceError('conflict', 'indicator.inUse')
    await deleteIndicatorRow(trx, id)
    await audit(trx, actor, 'indicator.delete', 'ok', now, { id, code: self.code }, { type: 'indicator', id })
  })
}
