/**
 * Between a stored form instance (contract/studyData.ts) and what the form renderer edits
 * (FormData), pure: the renderer knows rows only by position, so a saved row carries its id and
 * rev under a key no indicator can have; a save is built from the shown values only (the
 * dependent-field rule), and tells whether a saved value changes (then a reason is needed).
 */
import type { FormInstance, FormSave, StoredValues } from '../../../../contract/studyData.ts'
import {
  indicatorMap,
  initialForm,
  isEmpty,
  isVisible,
  keyOf,
  parseFieldPath,
  visibleData,
  type FieldValue,
  type FieldValues,
  type FormData,
  type FormDefinition,
} from '../../../../contract/formValues.ts'

/** Where a saved row keeps its id and rev inside the renderer's row ("id:rev"); not a digit key, so never sent as a value. */
export const rowKey = '#row'

export function rowIdentity(row: FieldValues): { id: number; rev: number } | null {
  const v = row[rowKey]
  if (typeof v !== 'string') return null
  const [id, rev] = v.split(':').map(Number)
  return id && rev ? { id, rev } : null
}

/** What the renderer edits for an instance: its values and rows, or a fresh form's defaults. */
export function toFormData(instance: Pick<FormInstance, 'record' | 'values' | 'rows' | 'version'>): FormData {
  if (instance.record === null) return initialForm(instance.version)
  const rows: Record<string, FieldValues[]> = {}
  for (const s of instance.version.layout.sections) {
    if (!s.repeating) continue
    rows[s.key] = (instance.rows[s.key] ?? []).map((r) => ({ ...r.values, [rowKey]: `${r.id}:${r.rev}` }))
  }
  return { values: instance.values, rows }
}

const stored = (v: FieldValue): string | string[] => (typeof v === 'string' ? v : [...v])

function storedValues(values: FieldValues): StoredValues {
  const out: StoredValues = {}
  for (const [k, v] of Object.entries(values)) if (k !== rowKey) out[k] = stored(v)
  return out
}

/** The save of `data`: shown values only, every sub form's rows with the id and rev of those already saved. */
export function toSave(
  def: FormDefinition,
  data: FormData,
  target: Pick<FormSave, 'studyId' | 'objectId' | 'templateId' | 'slot'> & { recordId: number | null; rev: number },
  reason?: string,
): FormSave {
  const shown = visibleData(def, data)
  const rows: NonNullable<FormSave['rows']> = {}
  for (const s of def.layout.sections) {
    if (!s.repeating) continue
    rows[s.key] = (data.rows[s.key] ?? []).map((row, i) => {
      const identity = rowIdentity(row)
      const values = storedValues(shown.rows[s.key]?.[i] ?? {})
      return identity ? { id: identity.id, rev: identity.rev, values } : { values }
    })
  }
  return {
    studyId: target.studyId,
    objectId: target.objectId,
    templateId: target.templateId,
    ...(target.recordId !== null ? { recordId: target.recordId } : {}),
    slot: target.slot,
    rev: target.rev,
    values: storedValues(shown.values),
    rows,
    ...(reason ? { reason } : {}),
  }
}

const same = (a: FieldValue | undefined, b: FieldValue | undefined): boolean => {
  if (isEmpty(a) && isEmpty(b)) return true
  if (a === undefined || b === undefined) return false
  const x = typeof a === 'string' ? [a] : [...a].sort()
  const y = typeof b === 'string' ? [b] : [...b].sort()
  return x.length === y.length && x.every((v, i) => v === y[i])
}

/**
 * Whether the save changes a value that was saved (a saved field changed or cleared, a saved row
 * changed or removed): the server then wants a reason. A first value is no change.
 */
export function changesSaved(instance: Pick<FormInstance, 'record' | 'values' | 'rows'>, save: FormSave): boolean {
  if (instance.record === null) return false
  const changed = (before: StoredValues, after: StoredValues) => Object.entries(before).some(([k, v]) => !isEmpty(v) && !same(v, after[k]))
  if (changed(instance.values, save.values)) return true
  for (const [section, before] of Object.entries(instance.rows)) {
    const after = new Map((save.rows?.[section] ?? []).flatMap((r) => (r.id ? [[r.id, r.values] as const] : [])))
    for (const row of before) {
      const now = after.get(row.id)
      if (!now || changed(row.values, now)) return true
    }
  }
  return false
}

/**
 * For a member who may enter data but not change what was saved (no editData): which fields and
 * rows are theirs to fill. A field path is locked when its saved value is not empty; a saved
 * row's path (`r:<section>:<index>`) is locked, as removing it changes saved data; fields of a new
 * row and empty saved fields stay open. The server refuses the rest; this spares typing into them.
 */
export function savedLock(instance: Pick<FormInstance, 'record' | 'values' | 'rows'>, data: FormData): (path: string) => boolean {
  if (instance.record === null) return () => false
  return (path) => {
    const { section, row, key } = parseFieldPath(path)
    if (section === null) return !isEmpty(instance.values[key])
    const identity = rowIdentity(data.rows[section]?.[row] ?? {})
    if (!identity) return false
    if (key === '') return true
    const saved = (instance.rows[section] ?? []).find((r) => r.id === identity.id)
    return saved !== undefined && !isEmpty(saved.values[key])
  }
}

/** Whether the form differs from what was loaded (unsaved edits). */
export function differsFrom(a: FormData, b: FormData): boolean {
  const valuesDiffer = (x: FieldValues, y: FieldValues) => {
    const keys = new Set([...Object.keys(x), ...Object.keys(y)])
    return [...keys].some((k) => !same(x[k], y[k]))
  }
  if (valuesDiffer(a.values, b.values)) return true
  const sections = new Set([...Object.keys(a.rows), ...Object.keys(b.rows)])
  for (const s of sections) {
    const x = a.rows[s] ?? []
    const y = b.rows[s] ?? []
    if (x.length !== y.length || x.some((row, i) => valuesDiffer(row, y[i] ?? {}))) return true
  }
  return false
}

/** A field that differs between two forms of one definition: plain (section undefined) or in row `row` of a sub form. */
export interface Difference {
  indicatorId: number
  section?: string
  row?: number
}

/** The shown fields whose values differ between `a` and `b`, in layout order; rows are compared by position. */
export function differences(def: FormDefinition, a: FormData, b: FormData): Difference[] {
  const byId = indicatorMap(def)
  const out: Difference[] = []
  for (const s of def.layout.sections) {
    if (s.repeating) {
      const x = a.rows[s.key] ?? []
      const y = b.rows[s.key] ?? []
      for (let r = 0; r < Math.max(x.length, y.length); r++) {
        for (const item of s.items) {
          const f = byId.get(item.indicatorId)
          const k = keyOf(item.indicatorId)
          if (!f) continue
          const shownX = x[r] !== undefined && isVisible(f, byId, { row: x[r], values: a.values })
          const shownY = y[r] !== undefined && isVisible(f, byId, { row: y[r], values: b.values })
          if (!same(shownX ? x[r]?.[k] : undefined, shownY ? y[r]?.[k] : undefined)) out.push({ indicatorId: f.id, section: s.key, row: r })
        }
      }
    } else {
      for (const item of s.items) {
        const f = byId.get(item.indicatorId)
        const k = keyOf(item.indicatorId)
        if (!f) continue
        const va = isVisible(f, byId, { values: a.values }) ? a.values[k] : undefined
        const vb = isVisible(f, byId, { values: b.values }) ? b.values[k] : undefined
        if (!same(va, vb)) out.push({ indicatorId: f.id })
      }
    }
  }
  return out
}

/** Required fields shown and still empty, in layout order (rows included). */
export function emptyRequired(def: FormDefinition, data: FormData): Difference[] {
  const byId = indicatorMap(def)
  const out: Difference[] = []
  for (const s of def.layout.sections) {
    const rows = s.repeating ? (data.rows[s.key] ?? []) : [null]
    rows.forEach((row, r) => {
      for (const item of s.items) {
        const f = byId.get(item.indicatorId)
        if (!f || !item.required) continue
        const scope = row ? { row, values: data.values } : { values: data.values }
        if (!isVisible(f, byId, scope)) continue
        const v = row ? row[keyOf(f.id)] : data.values[keyOf(f.id)]
        if (isEmpty(v)) out.push(row ? { indicatorId: f.id, section: s.key, row: r } : { indicatorId: f.id })
      }
    })
  }
  return out
}
