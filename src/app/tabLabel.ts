import type { Tab } from '../state/workspace.ts'

/** What a tab and its pane header say: the translated title, and the name of the record its view shows (src/state/focus.ts). */
export function tabLabel(tab: Pick<Tab, 'title'>, t: (key: string) => string, recordName?: string): string {
  return recordName ? `${t(tab.title)} · ${recordName}` : t(tab.title)
}
