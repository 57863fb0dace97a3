/**
 * The layout designer's state, one entry per open designer view (by its full path, which is what
 * ctx.path names when that view has the focus). The page renders the entry; commands reach it
 * through the designer capability the view publishes (designerActions below).
 */
import { proxy, ref } from 'valtio'
import type { LayoutSection, Template, TemplateKind, VersionField, VersionInfo } from '../../../contract/crf.ts'
import type { Indicator } from '../../../contract/dictionary.ts'
import type { DesignerActions } from '../../../commands/templates.ts'
import { invalidate } from '../../api/query.ts'
import { checkGenerate, type GenerateState } from './api/checkGenerate.ts'
import { getIndicator } from './api/getIndicator.ts'
import { getLayout } from './api/getLayout.ts'
import { getTemplate } from './api/getTemplate.ts'
import { saveLayout } from './api/saveLayout.ts'
import * as ops from './layoutOps.ts'

export interface DesignerState {
  templateId: number
  kind: TemplateKind
  template: Template | null
  /** The layout being edited. */
  sections: LayoutSection[]
  /** The layout as the server last gave it: the edit is dirty when it differs. */
  saved: LayoutSection[]
  /**
   * Every indicator the layout places (or placed during this edit), and the fields they depend on,
   * by id; kept out of the proxy
   * (valtio ref), since a form may place thousands. `dependentCode` comes with a version's fields.
   */
  indicators: Record<string, Indicator & Partial<Pick<VersionField, 'dependentCode'>>>
  version: VersionInfo | null
  generate: GenerateState | null
  /** The selected item's indicator id. */
  selected: number | null
  loading: boolean
  saving: boolean
  /** The load failed: the view says so and offers to retry. */
  failed: boolean
  addOpen: boolean
  /** Bumped when the view should put the focus on the selected item (after a keyboard move). */
  focusSeq: number
  /** The section whose title input should take the focus (a new section, a rename). */
  titleFocus: { key: string; seq: number } | null
}

export const designers = proxy<Record<string, DesignerState>>({})

export const isDirty = (d: Pick<DesignerState, 'sections' | 'saved'>) => !ops.sameLayout(d.sections, d.saved)

const clone = <T>(v: T): T => JSON.parse(JSON.stringify(v)) as T

/** Creates the entry of a designer view (if new) and loads it. */
export function openDesigner(path: string, templateId: number, kind: TemplateKind): DesignerState {
  let d = designers[path]
  if (!d || d.templateId !== templateId) {
    designers[path] = {
      templateId,
      kind,
      template: null,
      sections: [],
      saved: [],
      indicators: {},
      version: null,
      generate: null,
      selected: null,
      loading: true,
      saving: false,
      failed: false,
      addOpen: false,
      focusSeq: 0,
      titleFocus: null,
    }
    d = designers[path] as DesignerState
    void loadDesigner(path)
  }
  return d
}

export function closeDesigner(path: string): void {
  delete designers[path]
}

/**
 * Reads the template, its current version and its publication state. Unsaved edits are kept: only
 * a clean designer takes the server's layout.
 */
export async function loadDesigner(path: string): Promise<void> {
  const d = designers[path]
  if (!d) return
  const id = d.templateId
  try {
    const [template, version] = await Promise.all([getTemplate(id), getLayout(id)])
    const generate = await checkGenerate(template.kind, id).catch(() => null)
    const now = designers[path]
    if (!now || now.templateId !== id) return
    now.template = template
    now.kind = template.kind
    now.generate = generate
    for (const i of version.indicators) now.indicators[String(i.id)] = ref(i)
    if (!isDirty(now) || now.loading) {
      now.sections = clone(version.layout.sections)
      now.saved = clone(version.layout.sections)
      now.version = version
      if (now.selected !== null && !ops.find(now.sections, now.selected)) now.selected = null
    }
    now.failed = false
    void loadDependents(path)
  } catch {
    const now = designers[path]
    if (now) now.failed = true
  } finally {
    const now = designers[path]
    if (now) now.loading = false
  }
}

/** Applies a pure edit to the layout. */
export function edit(path: string, change: (s: ops.Sections) => ops.Sections): void {
  const d = designers[path]
  if (!d) return
  const next = change(d.sections)
  if (next !== d.sections) d.sections = clone(next as LayoutSection[])
}

export function select(path: string, indicatorId: number | null, focus = false): void {
  const d = designers[path]
  if (!d) return
  d.selected = indicatorId
  if (focus) d.focusSeq++
}

export function moveSelected(path: string, delta: -1 | 1): void {
  const d = designers[path]
  if (!d || d.selected === null) return
  const id = d.selected
  edit(path, (s) => ops.moveBy(s, id, delta))
  d.focusSeq++
}

/** Places the indicators after the selected item (or at the end) and selects the last one. */
export function addIndicators(path: string, indicators: readonly Indicator[], sectionKey?: string | null): number {
  const d = designers[path]
  if (!d) return 0
  const before = ops.placedIds(d.sections)
  for (const i of indicators) d.indicators[String(i.id)] = ref(i)
  const ids = indicators.map((i) => i.id)
  edit(path, (s) => ops.insertItems(s, ids, { after: sectionKey ? null : d.selected, sectionKey }))
  const added = ids.filter((id) => !before.has(id))
  const last = added[added.length - 1]
  if (last !== undefined) select(path, last, true)
  void loadDependents(path)
  return added.length
}

/**
 * Fetches, once each, the fields the known ones depend on that the designer has not seen (a field
 * off the form), so a dependent rule names its field instead of showing an id.
 */
async function loadDependents(path: string): Promise<void> {
  const known = designers[path]?.indicators
  if (!known) return
  const missing = new Set<number>()
  for (const i of Object.values(known))
    if (i.dependentFieldId !== null && !known[String(i.dependentFieldId)]) missing.add(i.dependentFieldId)
  const found = await Promise.all([...missing].map((id) => getIndicator(id, { toast: false }).catch(() => null)))
  const now = designers[path]
  if (!now) return
  for (const f of found) if (f) now.indicators[String(f.id)] = ref(f)
}

export function setAddOpen(path: string, open: boolean): void {
  const d = designers[path]
  if (d) d.addOpen = open
}

/** Writes the layout (PUT …/layout); rejects when the server refuses (its message was shown). */
export async function saveDesigner(path: string): Promise<void> {
  const d = designers[path]
  if (!d || d.saving) return
  const id = d.templateId
  const sent = ops.toLayout(d.sections)
  d.saving = true
  try {
    const version = await saveLayout(id, sent)
    const now = designers[path]
    if (!now) return
    for (const i of version.indicators) now.indicators[String(i.id)] = ref(i)
    now.saved = clone(version.layout.sections)
    // Edits made while the call was out stay (and stay dirty); otherwise take the server's form.
    if (ops.sameLayout(now.sections, sent.sections)) now.sections = clone(version.layout.sections)
    now.version = version
    now.generate = await checkGenerate(now.kind, id).catch(() => now.generate)
  } finally {
    const now = designers[path]
    if (now) now.saving = false
  }
  invalidate('templates')
}

/** The section of the selected item, else the last one. */
function currentSection(d: DesignerState): LayoutSection | null {
  const place = d.selected === null ? null : ops.find(d.sections, d.selected)
  return (place ? d.sections[place.section] : d.sections[d.sections.length - 1]) ?? null
}

function focusTitle(d: DesignerState, key: string): void {
  d.titleFocus = { key, seq: (d.titleFocus?.seq ?? 0) + 1 }
}

/** What commands see of the designer at `path` when it has the focus; undefined while it loads. */
export function designerActions(path: string): DesignerActions | undefined {
  const d = designers[path]
  if (!d || d.loading || d.failed) return undefined
  const section = currentSection(d)
  const item = d.selected === null ? undefined : d.sections.flatMap((s) => s.items).find((i) => i.indicatorId === d.selected)
  return {
    templateId: d.templateId,
    kind: d.kind,
    selected: d.selected,
    selectedRequired: item ? item.required : null,
    section: section && { key: section.key, repeating: section.repeating },
    dirty: isDirty(d),
    canMove: (delta) => ops.canMove(d.sections, d.selected, delta),
    moveSelected: (delta) => moveSelected(path, delta),
    toggleRequired: () => {
      if (item) edit(path, (s) => ops.setRequired(s, item.indicatorId, !item.required))
    },
    addSection: () => {
      const before = new Set(d.sections.map((s) => s.key))
      edit(path, (s) => ops.addSection(s))
      const added = d.sections.find((s) => !before.has(s.key))
      if (added) focusTitle(d, added.key)
    },
    editSectionTitle: () => {
      if (section) focusTitle(d, section.key)
    },
    toggleRepeating: () => {
      if (section) edit(path, (s) => ops.updateSection(s, section.key, { repeating: !section.repeating }))
    },
    openAddIndicators: () => setAddOpen(path, true),
    save: () => saveDesigner(path),
  }
}
