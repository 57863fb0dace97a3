import type { Tab } from '../state/workspace.ts'

/** What a tab and its pane header say: the translated title, and the record's `?name=` when the path carries one. */
export function tabLabel(tab: Pick<Tab, 'path' | 'title'>, t: (key: string) => string): string {
  const query = tab.path.split('?')[1]
  const name = query === undefined ? null : new URLSearchParams(query).get('name')
  return name ? `${t(tab.title)} · ${name}` : t(tab.title)
}
