/**
 * The designer's edits of a layout, as pure functions over plain sections (no store, no React):
 * each answers new sections, or the same array when the edit does not apply. An indicator is
 * placed at most once in a form (the server refuses twice), so an item is named by its indicator.
 */
import type { Layout, LayoutItem, LayoutSection } from '../../../contract/crf.ts'

export type Sections = readonly LayoutSection[]

export interface Place {
  section: number
  index: number
}

export function find(sections: Sections, indicatorId: number): Place | null {
  for (let s = 0; s < sections.length; s++) {
    const index = (sections[s] as LayoutSection).items.findIndex((i) => i.indicatorId === indicatorId)
    if (index >= 0) return { section: s, index }
  }
  return null
}

export const placedIds = (sections: Sections): Set<number> => new Set(sections.flatMap((s) => s.items.map((i) => i.indicatorId)))

/** The next free section key: s1, s2, … */
export function nextSectionKey(sections: Sections): string {
  const used = new Set(sections.map((s) => s.key))
  let n = sections.length + 1
  while (used.has(`s${n}`)) n++
  return `s${n}`
}

export function addSection(sections: Sections, title = ''): Sections {
  return [...sections, { key: nextSectionKey(sections), title, repeating: false, items: [] }]
}

export function updateSection(sections: Sections, key: string, patch: Partial<Pick<LayoutSection, 'title' | 'repeating'>>): Sections {
  return sections.map((s) => (s.key === key ? { ...s, ...patch } : s))
}

export function removeSection(sections: Sections, key: string): Sections {
  return sections.filter((s) => s.key !== key)
}

/** Moves a section one place up (-1) or down (+1). */
export function moveSection(sections: Sections, key: string, delta: -1 | 1): Sections {
  const at = sections.findIndex((s) => s.key === key)
  const to = at + delta
  if (at < 0 || to < 0 || to >= sections.length) return sections
  const out = [...sections]
  ;[out[at], out[to]] = [out[to] as LayoutSection, out[at] as LayoutSection]
  return out
}

/**
 * Where a one-step move takes an item: the neighbour place in its section, or across the border
 * into the end of the section above / the start of the section below; null at the very top or end.
 */
export function moveTarget(sections: Sections, indicatorId: number, delta: -1 | 1): Place | null {
  const at = find(sections, indicatorId)
  if (!at) return null
  const here = sections[at.section] as LayoutSection
  const index = at.index + delta
  if (index >= 0 && index < here.items.length) return { section: at.section, index }
  const section = at.section + delta
  if (section < 0 || section >= sections.length) return null
  return { section, index: delta < 0 ? (sections[section] as LayoutSection).items.length : 0 }
}

export const canMove = (sections: Sections, indicatorId: number | null, delta: -1 | 1) =>
  indicatorId !== null && moveTarget(sections, indicatorId, delta) !== null

/** Takes the item out and puts it at `to` (an index in the section as it is without the item). */
export function moveTo(sections: Sections, indicatorId: number, to: Place): Sections {
  const at = find(sections, indicatorId)
  if (!at || to.section < 0 || to.section >= sections.length) return sections
  const item = (sections[at.section] as LayoutSection).items[at.index] as LayoutItem
  const without = sections.map((s, i) => (i === at.section ? { ...s, items: s.items.filter((x) => x.indicatorId !== indicatorId) } : s))
  const target = without[to.section] as LayoutSection
  const index = Math.max(0, Math.min(to.index, target.items.length))
  return without.map((s, i) => (i === to.section ? { ...s, items: [...s.items.slice(0, index), item, ...s.items.slice(index)] } : s))
}

export function moveBy(sections: Sections, indicatorId: number, delta: -1 | 1): Sections {
  const to = moveTarget(sections, indicatorId, delta)
  return to ? moveTo(sections, indicatorId, to) : sections
}

/**
 * Places indicators (those not yet in the form, in the order given) after the item `after`, or at
 * the end of section `sectionKey`, or at the end of the last section; a form without sections
 * gets its first one.
 */
export function insertItems(
  sections: Sections,
  ids: readonly number[],
  where: { after?: number | null; sectionKey?: string | null } = {},
): Sections {
  const placed = placedIds(sections)
  const fresh = [...new Set(ids)].filter((id) => !placed.has(id)).map((indicatorId): LayoutItem => ({ indicatorId, required: false }))
  if (fresh.length === 0) return sections
  const base = sections.length === 0 ? addSection(sections) : sections
  const after = where.after != null ? find(base, where.after) : null
  let section = after ? after.section : base.findIndex((s) => s.key === where.sectionKey)
  if (section < 0) section = base.length - 1
  const items = (base[section] as LayoutSection).items
  const index = after ? after.index + 1 : items.length
  return base.map((s, i) => (i === section ? { ...s, items: [...items.slice(0, index), ...fresh, ...items.slice(index)] } : s))
}

export function removeItem(sections: Sections, indicatorId: number): Sections {
  return sections.map((s) => ({ ...s, items: s.items.filter((i) => i.indicatorId !== indicatorId) }))
}

export function setRequired(sections: Sections, indicatorId: number, required: boolean): Sections {
  return sections.map((s) => ({ ...s, items: s.items.map((i) => (i.indicatorId === indicatorId ? { ...i, required } : i)) }))
}

/** A plain copy for the API (no proxies). */
export function toLayout(sections: Sections): Layout {
  return {
    sections: sections.map((s) => ({
      key: s.key,
      title: s.title,
      repeating: s.repeating,
      items: s.items.map((i) => ({ indicatorId: i.indicatorId, required: i.required })),
    })),
  }
}

export const sameLayout = (a: Sections, b: Sections) => JSON.stringify(toLayout(a)) === JSON.stringify(toLayout(b))

/** The item before / after `indicatorId` in reading order: where the selection goes on ↑ / ↓. */
export function neighbour(sections: Sections, indicatorId: number | null, delta: -1 | 1): number | null {
  const all = sections.flatMap((s) => s.items.map((i) => i.indicatorId))
  if (all.length === 0) return null
  if (indicatorId === null) return delta > 0 ? (all[0] as number) : (all[all.length - 1] as number)
  const at = all.indexOf(indicatorId)
  const next = all[at + delta]
  return next ?? null
}
