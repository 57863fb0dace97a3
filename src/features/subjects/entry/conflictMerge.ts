/**
 * The choices of a save conflict, pure: which fields and sub forms differ between the user's
 * values and the stored ones, and the form that results from choosing, field by field (a sub
 * form is chosen whole: its rows belong together).
 */
import type { SaveConflict } from '../../../../contract/studyData.ts'
import { indicatorMap, type FieldValue, type FormData, type FormDefinition } from '../../../../contract/formValues.ts'
import type { Indicator } from '../../../../contract/dictionary.ts'

export type Side = 'mine' | 'theirs'

export interface ConflictField {
  /** `f<indicatorId>`: the key of its choice. */
  key: string
  indicator: Indicator
  mine: FieldValue | undefined
  theirs: FieldValue | undefined
  differs: boolean
}

export interface ConflictSection {
  /** `s<sectionKey>`. */
  key: string
  sectionKey: string
  title: string
  mine: readonly Readonly<Record<string, FieldValue>>[]
  theirs: readonly Readonly<Record<string, FieldValue>>[]
  differs: boolean
}

export type Choices = Readonly<Record<string, Side>>

/** The stored values as form data. */
export function theirsAsForm(current: SaveConflict['current']): FormData {
  return { values: current.values, rows: Object.fromEntries(Object.entries(current.rows).map(([k, rs]) => [k, rs.map((r) => r.values)])) }
}

const empty = (v: FieldValue | undefined) => v === undefined || v === '' || (Array.isArray(v) && v.length === 0)
/** Equal as the user sees them: an absent value and an empty one are the same. */
export function sameValue(a: FieldValue | undefined, b: FieldValue | undefined): boolean {
  if (empty(a) && empty(b)) return true
  return JSON.stringify(a) === JSON.stringify(b)
}
const sameRows = (a: ConflictSection['mine'], b: ConflictSection['mine']) =>
  a.length === b.length && a.every((row, i) => Object.keys({ ...row, ...b[i] }).every((k) => sameValue(row[k], b[i]?.[k])))

/** Fields of the plain sections and the sub forms, each in layout order with the differing ones first. */
export function conflictItems(def: FormDefinition, mine: FormData, theirs: FormData) {
  const byId = indicatorMap(def)
  const fields: ConflictField[] = []
  const sections: ConflictSection[] = []
  for (const s of def.layout.sections) {
    if (s.repeating) {
      const m = mine.rows[s.key] ?? []
      const t = theirs.rows[s.key] ?? []
      sections.push({ key: `s${s.key}`, sectionKey: s.key, title: s.title || s.key, mine: m, theirs: t, differs: !sameRows(m, t) })
      continue
    }
    for (const item of s.items) {
      const f = byId.get(item.indicatorId)
      if (!f) continue
      const m = mine.values[String(f.id)]
      const t = theirs.values[String(f.id)]
      fields.push({ key: `f${f.id}`, indicator: f, mine: m, theirs: t, differs: !sameValue(m, t) })
    }
  }
  const differingFirst = <T extends { differs: boolean }>(xs: T[]) => [...xs.filter((x) => x.differs), ...xs.filter((x) => !x.differs)]
  return { fields: differingFirst(fields), sections: differingFirst(sections) }
}

/** The form from the choices; a field or sub form without a choice keeps mine. */
export function mergeChoices(def: FormDefinition, mine: FormData, theirs: FormData, choices: Choices): FormData {
  const { fields, sections } = conflictItems(def, mine, theirs)
  const values: Record<string, FieldValue> = { ...mine.values }
  for (const f of fields) {
    if (choices[f.key] !== 'theirs') continue
    const k = String(f.indicator.id)
    if (f.theirs === undefined) delete values[k]
    else values[k] = f.theirs
  }
  const rows: Record<string, FormData['rows'][string]> = { ...mine.rows }
  for (const s of sections) if (choices[s.key] === 'theirs') rows[s.sectionKey] = s.theirs
  return { values, rows }
}
