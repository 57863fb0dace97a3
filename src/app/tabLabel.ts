import { screens } from '../../contract/screens.ts'
import { getLang } from '../i18n/index.ts'
import { screenTitle } from '../state/catalog.ts'
import type { Tab } from '../state/workspace.ts'

/**
 * What a tab and its pane header say: its screen's title (the catalog's when an administrator
 * renamed it, src/state/catalog.ts), else the translation of its key; then the name of the record
 * its view shows (src/state/focus.ts).
 */
export function tabLabel(tab: Pick<Tab, 'title'>, t: (key: string) => string, recordName?: string): string {
  const screen = screens.find((s) => s.title === tab.title)
  const title = screen ? screenTitle(screen.name, getLang()) : t(tab.title)
  return recordName ? `${title} · ${recordName}` : title
}
