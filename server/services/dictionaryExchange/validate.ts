import type { z } from 'zod'
import { indicatorInput, type Choice, type IndicatorInput } from '../../../contract/dictionary.ts'
import { hasChoice, indicatorProblems } from '../../../contract/indicatorRules.ts'
import type { MessageKey } from '../../i18n/messages.ts'
import type { Q } from '../../db/query.ts'
import {
  crfNamesTaken,
  dependentsOfIds,
  diseasesByName,
  existingCodes,
  indicatorsByCodes,
  indicatorsByIds,
  type NewCrf,
} from '../../db/repositories/dictionaryExchange.ts'
import { indicatorsInPublishedVersions } from '../../db/repositories/indicators.ts'
import type { IndicatorRow } from '../../db/tables/dictionary.ts'
import type { Draft, Notice, Param, Placement, RowProblem } from './model.ts'
import { choiceCodeOf } from './ownFormat.ts'

/**
 * Every row is held to the rules of the contract (indicatorInput, indicatorProblems) and to those
 * that need the whole file or the database: unique codes, dependent fields that exist (in the file
 * or already), values among the dependent field's options, no dependency cycle, diseases and CRF
 * names. All problems are collected, none stops the check early, so one answer lists them all.
 */

export interface Candidate {
  draft: Draft
  input: IndicatorInput
  /** In the file: resolved after insertion of the row it names. */
  dependentCode: string | null
  /** Already in the database. */
  dependentId: number | null
  /** False when the row broke a rule: rows depending on it are not also refused because of it. */
  clean: boolean
}

export interface Plan {
  /** Insertion layers: a row's dependent field is in the database or in an earlier layer. */
  layers: Candidate[][]
  crfs: (Omit<NewCrf, 'items'> & { items: { sectionKey: string; position: number; code: string; required: boolean }[] })[]
  notices: Notice[]
  rows: number
}

const fieldOf = (d: Draft, field: keyof IndicatorInput) => d.columnOf[field] ?? field

function problemOf(d: Draft, field: keyof IndicatorInput, key: MessageKey, params: Param[]): RowProblem {
  return { row: d.row, column: fieldOf(d, field), field, key, params }
}

/** A zod issue as a sentence naming the field. */
function zodProblem(d: Draft, issue: z.core.$ZodIssue): RowProblem {
  const field = String(issue.path[0] ?? 'code') as keyof IndicatorInput
  const label = { label: field }
  const raw = d.input[field]
  if (raw === undefined || raw === null || raw === '') return problemOf(d, field, 'rule.required', [label])
  if (issue.code === 'too_big' && field !== 'options') return problemOf(d, field, 'field.tooLong', [label, Number(issue.maximum)])
  return problemOf(d, field, 'field.invalid', [label])
}

/** The checks that need nothing but the file. */
export function checkRows(drafts: readonly Draft[]): { candidates: Candidate[]; problems: RowProblem[]; drafts: Map<string, Draft> } {
  const problems: RowProblem[] = []
  const candidates: Candidate[] = []
  const firstByCode = new Map<string, Draft>()
  for (const d of drafts) {
    const code = typeof d.input.code === 'string' ? d.input.code.trim() : ''
    const first = code ? firstByCode.get(code) : undefined
    if (first) {
      // The same REDCap field in another form: one indicator, one more placement.
      const otherForm = d.placements.every((p) => !first.placements.some((q) => q.form === p.form))
      if (d.signature !== null && d.signature === first.signature && otherForm) {
        first.placements.push(...d.placements)
        problems.push(...d.problems.filter((p) => p.field === 'form'))
        continue
      }
      problems.push(problemOf(d, 'code', 'import.duplicateInFile', [code, first.row]))
      continue
    }
    if (code) firstByCode.set(code, d)
    problems.push(...d.problems)
    // A field already refused while reading the row is not refused twice.
    const refused = new Set(d.problems.map((p) => p.field))
    // The dependent id is unknown until insertion: a placeholder lets the rules see that there is one.
    const parsed = indicatorInput.safeParse({ ...d.input, dependentFieldId: d.dependent ? 1 : null })
    if (!parsed.success) {
      for (const issue of parsed.error.issues) {
        const p = zodProblem(d, issue)
        if (!refused.has(p.field)) problems.push(p)
      }
      continue
    }
    const ruled = indicatorProblems(parsed.data).filter((p) => !refused.has(p.field))
    for (const p of ruled)
      problems.push(problemOf(d, p.field, `rule.${p.key}` as MessageKey, p.key === 'required' ? [{ label: p.field }] : p.params))
    const clean = d.problems.length === 0 && ruled.length === 0
    candidates.push({ draft: d, input: { ...parsed.data, dependentFieldId: null }, dependentCode: null, dependentId: null, clean })
  }
  return { candidates, problems, drafts: firstByCode }
}

type DependentTarget = { id: number | null; input: Pick<IndicatorInput, 'code' | 'type' | 'options' | 'comment'> }

/** The checks against the database, then the insertion plan. */
export async function checkAgainstDb(
  db: Q,
  checked: ReturnType<typeof checkRows>,
  opts: { diseaseId: number | null; existing: ReadonlyMap<string, IndicatorRow> | null },
): Promise<{ plan: Plan; problems: RowProblem[] }> {
  const { candidates, drafts } = checked
  const problems: RowProblem[] = []
  const inFile = new Map(candidates.map((c) => [c.input.code, c]))

  // Adding: a code already here refuses its row. Updating: it names the indicator to update.
  if (opts.existing === null) {
    const taken = await existingCodes(
      db,
      candidates.map((c) => c.input.code),
    )
    for (const c of candidates) if (taken.has(c.input.code)) problems.push(problemOf(c.draft, 'code', 'rule.exists', [c.input.code]))
  }

  const names = [...new Set(candidates.map((c) => c.draft.diseaseName).filter((n): n is string => n !== null))]
  const diseases = await diseasesByName(db, names)
  for (const c of candidates) {
    const name = c.draft.diseaseName
    const stored = opts.existing?.get(c.input.code)
    if (name === null && stored && opts.diseaseId === null && c.draft.absent.includes('diseaseId')) c.input.diseaseId = stored.disease_id
    else if (name === null) c.input.diseaseId = opts.diseaseId
    else {
      const id = diseases.get(name) ?? diseases.get(name.toLowerCase())
      if (id === undefined) problems.push(problemOf(c.draft, 'diseaseId', 'disease.notFound', [name]))
      else c.input.diseaseId = id
    }
  }

  // Dependent fields: in the file, or already in the database.
  const outside = [...new Set(candidates.map((c) => c.draft.dependent?.code).filter((x): x is string => !!x && !drafts.has(x)))]
  const stored = new Map<string, DependentTarget>()
  for (const r of await indicatorsByCodes(db, outside)) {
    stored.set(r.code, {
      id: r.id,
      input: { code: r.code, type: r.type as IndicatorInput['type'], options: JSON.parse(r.options) as Choice[], comment: r.comment },
    })
  }
  for (const c of candidates) {
    const ref = c.draft.dependent
    if (!ref) continue
    if (ref.code === c.input.code) {
      problems.push(problemOf(c.draft, 'dependentFieldId', 'indicator.dependentSelf', []))
      continue
    }
    const fileTarget = inFile.get(ref.code)
    const target: DependentTarget | undefined = fileTarget ? { id: null, input: fileTarget.input } : stored.get(ref.code)
    if (!target) {
      // A row of the file that failed its own checks reports itself; only a code found nowhere is reported here.
      if (!drafts.has(ref.code)) problems.push(problemOf(c.draft, 'dependentFieldId', 'indicator.dependentMissing', [ref.code]))
      continue
    }
    if (fileTarget && !fileTarget.clean) continue
    const value = dependentValue(ref, target.input)
    if (value === null) {
      problems.push(problemOf(c.draft, 'dependentValue', 'indicator.dependentValueNotOption', []))
      continue
    }
    c.input.dependentValue = value
    if (fileTarget) c.dependentCode = ref.code
    else c.dependentId = target.id
  }

  const layers = layered(candidates, inFile, problems)

  // CRFs from REDCap forms, in file order; a form name a CRF already has is refused.
  const forms = new Map<string, Placement[]>()
  for (const c of candidates) {
    for (const p of c.draft.placements) {
      const list = forms.get(p.form) ?? []
      list.push(p)
      forms.set(p.form, list)
    }
  }
  const codeAt = new Map<number, string>()
  for (const c of candidates) for (const p of c.draft.placements) codeAt.set(p.row, c.input.code)
  const takenForms = await crfNamesTaken(db, [...forms.keys()])
  const crfs: Plan['crfs'] = []
  const keptForms: Notice[] = []
  for (const [name, placements] of forms) {
    placements.sort((a, b) => a.row - b.row)
    // Updating: a CRF of that name stays as its designer keeps it; its fields are updated above.
    if (takenForms.has(name) && opts.existing !== null) {
      const first = placements[0]!
      keptForms.push({
        row: first.row,
        code: codeAt.get(first.row) ?? '',
        column: first.column,
        value: name,
        key: 'import.unmapped.formKept',
        params: [name],
      })
      continue
    }
    if (takenForms.has(name)) {
      const first = placements[0]!
      problems.push({ row: first.row, column: first.column, field: 'form', key: 'rule.exists', params: [name] })
      continue
    }
    const crf: Plan['crfs'][number] = { name, description: '', sections: [], items: [] }
    let positions = 0
    for (const p of placements) {
      // A section header opens a new section; fields before the first header get an untitled one.
      if (p.section || crf.sections.length === 0) {
        crf.sections.push({ key: `s${crf.sections.length + 1}`, title: p.section, repeating: false })
        positions = 0
      }
      crf.items.push({
        sectionKey: crf.sections[crf.sections.length - 1]!.key,
        position: positions++,
        code: codeAt.get(p.row)!,
        required: p.required,
      })
    }
    crfs.push(crf)
  }

  if (opts.existing !== null) problems.push(...(await checkUpdates(db, candidates, inFile, opts.existing)))
  const notices = [...candidates.flatMap((c) => c.draft.notices), ...keptForms].sort((a, b) => a.row - b.row)
  return { plan: { layers, crfs, notices, rows: candidates.length }, problems }
}

/** Longest dependency chain walked through the database before it is taken for a cycle already there. */
const maxChainLength = 10_000

/**
 * The rules of services/indicators.ts for an update, over the whole file at once: the type and
 * data type of an indicator a published version holds stay as they are; values that stored
 * dependents rely on stay among the choices; and no dependency cycle closes through the database.
 */
async function checkUpdates(
  db: Q,
  candidates: readonly Candidate[],
  inFile: ReadonlyMap<string, Candidate>,
  existing: ReadonlyMap<string, IndicatorRow>,
): Promise<RowProblem[]> {
  const problems: RowProblem[] = []
  const updates = candidates.filter((c) => existing.has(c.input.code))
  const retyped = updates.filter((c) => {
    const row = existing.get(c.input.code)!
    return row.type !== c.input.type || row.data_type !== c.input.dataType
  })
  const published = await indicatorsInPublishedVersions(
    db,
    retyped.map((c) => existing.get(c.input.code)!.id),
  )
  for (const c of retyped)
    if (published.has(existing.get(c.input.code)!.id)) problems.push(problemOf(c.draft, 'type', 'indicator.typeFrozen', []))

  const byId = new Map([...existing.values()].map((r) => [r.id, r]))
  for (const d of await dependentsOfIds(db, [...byId.keys()])) {
    // A dependent in the file was checked against the new choices already.
    if (inFile.has(d.code) || d.dependent_value === null || d.dependent_field_id === null) continue
    const target = inFile.get(byId.get(d.dependent_field_id)!.code)
    if (target && target.input.options.length > 0 && !hasChoice(target.input.options, d.dependent_value)) {
      problems.push(problemOf(target.draft, 'options', 'indicator.dependentValueRemoved', [d.code, d.dependent_value]))
    }
  }

  // The dependency chain as it will be: the file's rows as written, others as stored.
  const stored = new Map<string, string | null>()
  const next = async (code: string): Promise<string | null> => {
    const c = inFile.get(code)
    if (c) return c.draft.dependent?.code ?? null
    if (!stored.has(code)) {
      const [row] = await indicatorsByCodes(db, [code])
      const [dep] = row?.dependent_field_id ? await indicatorsByIds(db, [row.dependent_field_id]) : []
      stored.set(code, dep?.code ?? null)
    }
    return stored.get(code) ?? null
  }
  for (const c of updates) {
    const chain = [c.input.code]
    let at = c.draft.dependent?.code ?? null
    // A chain within the file alone is layered() 's to judge.
    let leftFile = false
    while (at !== null && chain.length < maxChainLength && !chain.includes(at)) {
      leftFile ||= !inFile.has(at)
      chain.push(at)
      at = await next(at)
    }
    if (at === c.input.code && leftFile)
      problems.push(problemOf(c.draft, 'dependentFieldId', 'indicator.dependentCycle', [[...chain, at].join(' → ')]))
  }
  return problems
}

/** The choice code a dependent value names, or the raw value for a field without choices. */
function dependentValue(ref: NonNullable<Draft['dependent']>, dep: DependentTarget['input']): string | null {
  const choice = dep.type === 'single' || dep.type === 'multiple'
  if (!choice) return ref.by === 'checkbox' ? null : ref.value
  if (ref.by === 'checkbox' && dep.type !== 'multiple') return null
  const code = ref.by === 'code' ? choiceCodeOf(dep.options, ref.value) : ref.value
  return hasChoice(dep.options, code) ? code : null
}

/**
 * Depth of each row in the in-file dependency forest; rows on a cycle are refused (a field that
 * shows only when another shows only when the first does would never show).
 */
function layered(candidates: readonly Candidate[], inFile: Map<string, Candidate>, problems: RowProblem[]): Candidate[][] {
  const depth = new Map<Candidate, number>()
  const onCycle = new Set<Candidate>()
  for (const start of candidates) {
    if (depth.has(start) || onCycle.has(start)) continue
    // Walk up the chain iteratively: a 50,000-long chain must not overflow the stack.
    const path: Candidate[] = []
    const onPath = new Set<Candidate>()
    let c: Candidate | undefined = start
    while (c && !depth.has(c) && !onCycle.has(c)) {
      if (onPath.has(c)) {
        const cycle = path.slice(path.indexOf(c))
        const text = [...cycle, c].map((x) => x.input.code).join(' → ')
        for (const x of cycle) {
          onCycle.add(x)
          problems.push(problemOf(x.draft, 'dependentFieldId', 'indicator.dependentCycle', [text]))
        }
        break
      }
      path.push(c)
      onPath.add(c)
      c = c.dependentCode ? inFile.get(c.dependentCode) : undefined
    }
    // Unwind: a row above a cycle is refused with it, otherwise one deeper than its dependent.
    for (let i = path.length - 1; i >= 0; i--) {
      const x = path[i]!
      if (onCycle.has(x)) continue
      const parent = x.dependentCode ? inFile.get(x.dependentCode) : undefined
      if (parent && onCycle.has(parent)) {
        onCycle.add(x)
        continue
      }
      depth.set(x, parent ? (depth.get(parent) ?? 0) + 1 : 0)
    }
  }
  const layers: Candidate[][] = []
  for (const c of candidates) {
    const d = depth.get(c)
    if (d === undefined) continue
    ;(layers[d] ??= []).push(c)
  }
  return layers
}
