import { Breadcrumb as Crumb, Classes, type BreadcrumbProps } from '@blueprintjs/core'
import { useSnapshot } from 'valtio'
import { menuEntryName } from '../../contract/catalog.ts'
import { parseScreenPath } from '../../contract/screenPaths.ts'
import { screenTitle } from '../state/catalog.ts'
import { published } from '../state/focus.ts'
import { session } from '../state/session.ts'
import { useLang, useT } from '../i18n/useT.ts'
import { useCommandHost } from '../ui/commandHost.tsx'

/** Route titles (the catalog's, src/state/catalog.ts) from the dashboard down; the last item is never a link; the record's name is appended. */
export function Breadcrumb({ path }: { path: string }) {
  const t = useT()
  const host = useCommandHost()
  const screen = parseScreenPath(path)?.screen
  const name = useSnapshot(published)[path]?.record?.name
  const lang = useLang()
  const { catalog } = useSnapshot(session)
  const title = (n: string) => screenTitle(n, lang, catalog)
  const items: BreadcrumbProps[] = []
  if (screen?.name !== 'dashboard') {
    const onClick = (e: React.MouseEvent) => {
      e.preventDefault()
      void host.run('go.dashboard', 'menu')
    }
    items.push({ text: title('dashboard'), href: '/dashboard', onClick })
  }
  if (screen && screen.menu !== 'dashboard') items.push({ text: title(menuEntryName(screen.menu)) })
  if (screen) items.push({ text: title(screen.name) })
  if (name) items.push({ text: name })
  // The last crumb is where you are: plain text, not a link.
  const last = items[items.length - 1]
  if (last) items[items.length - 1] = { text: last.text, current: true }
  // Blueprint's Breadcrumbs puts its overflow spacer (a div) inside the list, which is not a
  // valid list child for assistive technology; the trail is short, so a plain list serves.
  return (
    <nav aria-label={t('breadcrumb.label')} className="navbar-breadcrumb">
      <ol className={Classes.BREADCRUMBS}>
        {items.map((item, i) => (
          <li key={i}>
            <Crumb {...item} />
          </li>
        ))}
      </ol>
    </nav>
  )
}
