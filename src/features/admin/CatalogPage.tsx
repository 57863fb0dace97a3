import { useState, type KeyboardEvent } from 'react'
import { H3, HTMLTable, Icon, InputGroup, NonIdealState, Spinner, Switch, Tag, type IconName } from '@blueprintjs/core'
import { catalogIconPattern, catalogTitleMax, menuEntryName, type CatalogEntry, type CatalogUpdate } from '../../../contract/catalog.ts'
import { menus, screens } from '../../../contract/screens.ts'
import { useApi } from '../../api/query.ts'
import { translate } from '../../i18n/index.ts'
import { useT } from '../../i18n/useT.ts'
import { holds } from '../../state/session.ts'
import { BusyButton } from '../../ui/BusyButton.tsx'
import { useCommandHost } from '../../ui/commandHost.tsx'
import { listCatalog } from './api/listCatalog.ts'

/** The built-in title key of an entry, shown beside it so an administrator knows what they rename. */
const builtinKey = (e: CatalogEntry) =>
  (e.kind === 'menu' ? menus.find((m) => menuEntryName(m.id) === e.name)?.title : screens.find((s) => s.name === e.name)?.title) ?? e.name

type TextField = 'icon' | 'titleZh' | 'titleEn'

/**
 * The menu/route catalog (SPEC §2 management/catalog, issue 8 item 3): each menu followed by its
 * screens, with order (up/down among its siblings), icon, hidden flag and zh/en titles (empty: the
 * built-in translation). Every change runs the edit catalog entry command; the sidebar follows.
 */
export default function CatalogPage() {
  const t = useT()
  const host = useCommandHost()
  const catalog = useApi(['catalog'], (signal) => listCatalog({ signal }))
  const [problems, setProblems] = useState<Record<string, string>>({})
  const editable = holds('catalog.edit')

  if (!catalog.data) return catalog.loading ? <Spinner /> : <NonIdealState icon="error" title={t('message.loadError')} />
  const entries = catalog.data.items
  const menuEntries = entries.filter((e) => e.kind === 'menu').sort((a, b) => a.sort - b.sort)
  const childrenOf = (menu: CatalogEntry) =>
    entries.filter((e) => e.kind === 'screen' && e.menu !== null && menuEntryName(e.menu) === menu.name).sort((a, b) => a.sort - b.sort)

  const save = (name: string, change: CatalogUpdate) => host.run('admin.editCatalogEntry', 'button', { name, ...change })

  /** Swaps the order of an entry and its neighbour (two edits; the list reloads after each). */
  const swap = async (a: CatalogEntry, b: CatalogEntry | undefined) => {
    if (!b) return
    // Equal sorts would not move: give the pair distinct places.
    const [sa, sb] = a.sort === b.sort ? [b.sort + 1, a.sort] : [b.sort, a.sort]
    const first = await save(a.name, { sort: sa })
    if (first.ok) await save(b.name, { sort: sb })
  }

  const problemOf = (field: TextField, value: string): string | null => {
    if (field === 'icon') return catalogIconPattern.test(value) ? null : t('org.catalog.iconInvalid')
    return value.length > catalogTitleMax ? t('org.catalog.titleTooLong', [catalogTitleMax]) : null
  }

  const commit = (e: CatalogEntry, field: TextField, raw: string) => {
    const value = raw.trim()
    if (value === e[field]) return
    const key = `${e.name}:${field}`
    const problem = problemOf(field, value)
    setProblems((p) => ({ ...p, [key]: problem ?? '' }))
    if (!problem) void save(e.name, { [field]: value })
  }

  const textCell = (e: CatalogEntry, field: TextField, placeholder: string) => {
    const key = `${e.name}:${field}`
    const problem = problems[key]
    return (
      <td>
        <InputGroup
          key={`${key}:${e[field]}`}
          small
          defaultValue={e[field]}
          placeholder={placeholder}
          maxLength={field === 'icon' ? 48 : catalogTitleMax + 8}
          disabled={!editable}
          intent={problem ? 'danger' : 'none'}
          title={problem || undefined}
          aria-label={`${t(builtinKey(e))} · ${t(`org.catalog.${field}`)}`}
          aria-invalid={problem ? true : undefined}
          onBlur={(ev) => commit(e, field, ev.currentTarget.value)}
          onKeyDown={(ev: KeyboardEvent<HTMLInputElement>) => {
            if (ev.key === 'Enter') commit(e, field, ev.currentTarget.value)
          }}
          data-testid={`catalog-${field}-${e.name}`}
        />
        {problem && (
          <div className="catalog-problem" role="alert">
            {problem}
          </div>
        )}
      </td>
    )
  }

  const row = (e: CatalogEntry, siblings: CatalogEntry[], i: number) => (
    <tr key={e.name} className={e.kind === 'menu' ? 'catalog-menu' : 'catalog-screen'} data-testid={`catalog-row-${e.name}`}>
      <th scope="row">
        {e.icon && <Icon icon={e.icon as IconName} size={14} />}{' '}
        <span className={e.kind === 'screen' ? 'catalog-indent' : ''}>{t(builtinKey(e))}</span> <Tag minimal>{e.name}</Tag>
      </th>
      <td>{t(e.kind === 'menu' ? 'org.catalog.menuKind' : 'org.catalog.screenKind')}</td>
      <td className="catalog-order">
        <BusyButton
          small
          variant="minimal"
          icon="arrow-up"
          focusableWhenDisabled
          aria-label={`${t(builtinKey(e))} · ${t('org.catalog.up')}`}
          disabled={!editable || i === 0}
          onClick={() => void swap(e, siblings[i - 1])}
          data-testid={`catalog-up-${e.name}`}
        />
        <BusyButton
          small
          variant="minimal"
          icon="arrow-down"
          focusableWhenDisabled
          aria-label={`${t(builtinKey(e))} · ${t('org.catalog.down')}`}
          disabled={!editable || i === siblings.length - 1}
          onClick={() => void swap(e, siblings[i + 1])}
          data-testid={`catalog-down-${e.name}`}
        />
      </td>
      {textCell(e, 'icon', '')}
      <td>
        <Switch
          checked={e.hidden}
          disabled={!editable}
          aria-label={`${t(builtinKey(e))} · ${t('org.catalog.hidden')}`}
          onChange={(ev) => void save(e.name, { hidden: ev.currentTarget.checked })}
          data-testid={`catalog-hidden-${e.name}`}
        />
      </td>
      {textCell(e, 'titleZh', translate('zh', builtinKey(e)))}
      {textCell(e, 'titleEn', translate('en', builtinKey(e)))}
    </tr>
  )

  return (
    <div className="admin-page catalog-page" data-testid="catalog-page">
      <H3>{t('route.catalog')}</H3>
      <HTMLTable compact striped className="catalog-table">
        <thead>
          <tr>
            <th scope="col">{t('org.catalog.name')}</th>
            <th scope="col">{t('org.catalog.kind')}</th>
            <th scope="col">{t('org.catalog.order')}</th>
            <th scope="col">{t('org.catalog.icon')}</th>
            <th scope="col">{t('org.catalog.hidden')}</th>
            <th scope="col">{t('org.catalog.titleZh')}</th>
            <th scope="col">{t('org.catalog.titleEn')}</th>
          </tr>
        </thead>
        <tbody>
          {menuEntries.flatMap((m, i) => {
            const children = childrenOf(m)
            return [row(m, menuEntries, i), ...children.map((s, j) => row(s, children, j))]
          })}
        </tbody>
      </HTMLTable>
    </div>
  )
}
