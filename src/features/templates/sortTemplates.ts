import type { Template } from '../../../contract/crf.ts'

/** The columns of the template list that sort (on the client: the list is small and read whole). */
export type TemplateSortKey = 'name' | 'updatedAt' | 'indexCount'
export const templateSortKeys: readonly TemplateSortKey[] = ['name', 'updatedAt', 'indexCount']

export function isTemplateSortKey(key: string): key is TemplateSortKey {
  return (templateSortKeys as readonly string[]).includes(key)
}

function time(value: string): number {
  const ms = Date.parse(value)
  return Number.isNaN(ms) ? 0 : ms
}

function compare(a: Template, b: Template, key: TemplateSortKey): number {
  switch (key) {
    case 'name':
      return a.name.localeCompare(b.name)
    case 'updatedAt':
      return time(a.updatedAt) - time(b.updatedAt)
    case 'indexCount':
      return a.indexCount - b.indexCount
  }
}

/**
 * A sorted copy of `rows` by `key` in `order`; ties keep the id order (ascending either way), so
 * the order is stable across reloads. An unknown key keeps the server's order.
 */
export function sortTemplates<T extends Template>(rows: readonly T[], key: string, order: 'asc' | 'desc'): T[] {
  if (!isTemplateSortKey(key)) return [...rows]
  const sign = order === 'desc' ? -1 : 1
  return [...rows].sort((a, b) => sign * compare(a, b, key) || a.id - b.id)
}
