import { useCallback, useEffect, useMemo, useState } from 'react'
import { Button, ButtonGroup, Card, H3, InputGroup, NonIdealState, ProgressBar, Spinner, Tag } from '@blueprintjs/core'
import { HTMLSelect } from '../../ui/HTMLSelect.tsx'
import {
  projectStatuses,
  projectTypes,
  randomMethods,
  testStages,
  type ProjectRow,
  type ProjectScope,
  type ProjectSortKey,
  type ProjectStatus,
} from '../../../contract/projects.ts'
import { parseScreenPath } from '../../../contract/screenPaths.ts'
import { useApi, useReloadKey } from '../../api/query.ts'
import { useLang, useT } from '../../i18n/useT.ts'
import { bilingual } from '../../../contract/bilingual.ts'
import { formatTime } from '../../lib/time.ts'
import { useCurrentProject } from '../../state/currentProject.ts'
import { useHolds } from '../../state/session.ts'
import { useCommandHost } from '../../ui/commandHost.tsx'
import { CommandButton } from '../../ui/CommandButton.tsx'
import { DenseTable, type DenseColumn, type Fetcher, type Sort } from '../../ui/DenseTable.tsx'
import { useSettled } from '../../ui/useSettled.ts'
import { listDiseases } from './api/listDiseases.ts'
import { listProjects, type ProjectQuery } from './api/listProjects.ts'
import { enrolmentIntent, roleLabel, statusIntent } from './labels.ts'
import './projectList.css'
import { BusyButton } from '../../ui/BusyButton.tsx'

export interface ProjectFilters {
  type?: ProjectRow['type']
  testStage?: NonNullable<ProjectRow['testStage']>
  diseaseId?: number
  status?: ProjectStatus
  randomMethod?: ProjectRow['randomMethod']
}
type EnumFilterKey = Exclude<keyof ProjectFilters, 'diseaseId'>

export type ProjectView = 'cards' | 'table'
const viewKey = 'projectListView'

/** The remembered way of showing the lists (cards by default, as SPEC's project list). */
export function readView(storage: Pick<Storage, 'getItem'> | undefined = globalThis.localStorage): ProjectView {
  try {
    return storage?.getItem(viewKey) === 'table' ? 'table' : 'cards'
  } catch {
    return 'cards'
  }
}

function rememberView(view: ProjectView): void {
  try {
    globalThis.localStorage?.setItem(viewKey, view)
  } catch {
    // Not remembered; still switched.
  }
}

/** Text inputs settle for this long before the list asks the server. */
const typingDelay = 300
/** Cards per page: a screenful; the table reads its own pages. */
const cardPage = 24

/**
 * The project lists (SPEC §2 multi-list and list; issue 9 item 1): the projects the caller is a
 * member of (system administrators see all), as cards, the project the user works in drawn as
 * SPEC's 'active' card, or as a DenseTable of the same query; search by a name or number prefix,
 * filters by type, stage, disease, status and random method, five sorts, keyset paging; every
 * project shows its subjects enrolled against the planned quantity.
 */
export default function ProjectListPage({ path = '' }: { path?: string }) {
  const t = useT()
  const lang = useLang()
  const host = useCommandHost()
  const screen = parseScreenPath(path)?.screen.name
  const scope: ProjectScope = screen === 'singleList' ? 'single' : 'multi'
  const [view, setView] = useState<ProjectView>(() => readView())
  const [filters, setFilters] = useState<ProjectFilters>({})
  const [text, setText] = useState('')
  const q = useSettled(text, typingDelay).trim()
  const [sort, setSort] = useState<Sort<ProjectSortKey>>({ key: 'updated', order: 'desc' })
  const reloadKey = useReloadKey('projects')
  const current = useCurrentProject()
  // Whoever may not read the dictionary gets no disease filter, and no refused request for one.
  const diseases = useApi(['diseases'], (signal) => listDiseases({ signal, toast: false }), { enabled: useHolds('dictionary.view') })

  const query: ProjectQuery = useMemo(
    () => ({ scope, ...filters, q: q || undefined, sort: sort.key, order: sort.order }),
    [scope, filters, q, sort],
  )
  const queryKey = JSON.stringify(query)
  const fetchPage: Fetcher<ProjectRow> = useCallback(
    (after, limit, signal) => listProjects({ ...query, after: after ?? undefined, limit }, { signal }),
    [query],
  )
  const run = host.run
  const open = useCallback((r: ProjectRow, toSide: boolean) => void run('projects.open', 'button', { id: r.id, toSide }), [run])
  const makeCurrent = useCallback(
    (r: ProjectRow) => void run('projects.switch', 'button', { id: r.id, name: r.name, number: r.number }),
    [run],
  )
  const diseaseName = (r: ProjectRow) => (r.diseaseName ? bilingual(r.diseaseName, r.diseaseNameEn ?? '', lang) : '')

  const columns = useMemo<DenseColumn<ProjectRow>[]>(
    () => [
      { id: 'number', header: 'projects.field.number', width: 120, sortKey: 'number', render: (r) => r.number },
      {
        id: 'name',
        header: 'projects.field.name',
        width: 220,
        sortKey: 'name',
        render: (r) => (current?.id === r.id ? `★ ${r.name}` : r.name),
      },
      { id: 'type', header: 'projects.field.type', width: 150, render: (r) => t(`projects.types.${r.type}`) },
      {
        id: 'testStage',
        header: 'projects.field.testStage',
        width: 130,
        render: (r) => (r.testStage ? t(`projects.testStages.${r.testStage}`) : ''),
      },
      { id: 'disease', header: 'projects.field.disease', width: 120, render: diseaseName },
      { id: 'status', header: 'projects.field.status', width: 90, render: (r) => t(`projects.statuses.${r.status}`) },
      { id: 'random', header: 'projects.field.randomMethod', width: 120, render: (r) => t(`projects.randomMethods.${r.randomMethod}`) },
      {
        id: 'subjects',
        header: 'projects.field.enrolled',
        width: 120,
        sortKey: 'subjects',
        render: (r) => `${r.subjectCount} / ${r.plannedQuantity}`,
      },
      { id: 'myRole', header: 'projects.field.myRole', width: 110, render: (r) => (r.myRole ? roleLabel(r.myRole, t) : '') },
      {
        id: 'created',
        header: 'projects.field.createdAt',
        width: 140,
        sortKey: 'created',
        render: (r) => formatTime(r.createdAt, '{y}-{m}-{d} {h}:{i}', lang) ?? '',
      },
      {
        id: 'updated',
        header: 'projects.field.updatedAt',
        width: 140,
        sortKey: 'updated',
        render: (r) => formatTime(r.updatedAt, '{y}-{m}-{d} {h}:{i}', lang) ?? '',
      },
      {
        id: 'actions',
        header: 'projects.list.actions',
        width: 80,
        fixed: true,
        interactive: true,
        render: (r) => (
          <Button
            variant="minimal"
            size="small"
            icon={current?.id === r.id ? 'star' : 'star-empty'}
            aria-label={`${t('projects.list.setCurrent')} ${r.number}`}
            title={t('projects.list.setCurrent')}
            aria-pressed={current?.id === r.id}
            data-testid={`project-current-${r.number}`}
            onClick={() => makeCurrent(r)}
          />
        ),
      },
    ],
    [t, lang, current?.id, makeCurrent],
  )

  const set = (patch: Partial<ProjectFilters>) => setFilters((f) => ({ ...f, ...patch }))
  /** A filter over one of the contract's enums: every value by its label, or all of them. */
  const enumFilter = (key: EnumFilterKey, values: readonly string[], labels: string, all: string, testId: string) => (
    <HTMLSelect
      aria-label={t(`projects.field.${key}`)}
      data-testid={`project-filter-${testId}`}
      value={filters[key] ?? ''}
      onChange={(e) => set({ [key]: e.currentTarget.value || undefined })}
      options={[{ value: '', label: t(`projects.list.${all}`) }, ...values.map((v) => ({ value: v, label: t(`projects.${labels}.${v}`) }))]}
    />
  )
  const filterBar = (
    <>
      <InputGroup
        leftIcon="search"
        type="search"
        className="dict-search"
        placeholder={t('projects.list.searchPlaceholder')}
        aria-label={t('projects.list.searchPlaceholder')}
        data-testid="project-search"
        value={text}
        onValueChange={setText}
      />
      {enumFilter('type', projectTypes, 'types', 'allTypes', 'type')}
      {enumFilter('testStage', testStages, 'testStages', 'allStages', 'stage')}
      {diseases.data && (
        <HTMLSelect
          aria-label={t('projects.field.disease')}
          data-testid="project-filter-disease"
          value={filters.diseaseId === undefined ? '' : String(filters.diseaseId)}
          onChange={(e) => set({ diseaseId: e.currentTarget.value ? Number(e.currentTarget.value) : undefined })}
          options={[
            { value: '', label: t('projects.list.allDiseases') },
            ...diseases.data.map((d) => ({ value: String(d.id), label: bilingual(d.name, d.nameEn, lang) })),
          ]}
        />
      )}
      {enumFilter('status', projectStatuses, 'statuses', 'allStatuses', 'status')}
      {enumFilter('randomMethod', randomMethods, 'randomMethods', 'allRandomMethods', 'random')}
      <Button
        variant="minimal"
        icon="filter-remove"
        text={t('common.reset')}
        data-testid="project-filter-reset"
        onClick={() => {
          setFilters({})
          setText('')
        }}
      />
    </>
  )

  const switchView = (next: ProjectView) => {
    setView(next)
    rememberView(next)
  }

  return (
    <div className={view === 'table' ? 'dense-page' : 'project-page'} data-testid="project-list" data-scope={scope} data-view={view}>
      <div className="dict-header">
        <div className="project-detail-title">
          <H3>{t(scope === 'single' ? 'route.list' : 'route.multiList')}</H3>
          {current ? (
            <Button
              variant="minimal"
              icon="star"
              intent="primary"
              text={`${t('projects.current.label')}: ${current.name}`}
              data-testid="project-current"
              onClick={() => void run('projects.open', 'button', { id: current.id })}
            />
          ) : (
            <span className="bp6-text-muted" data-testid="project-current">
              {t('projects.current.none')}
            </span>
          )}
        </div>
        <div className="dict-header-actions">
          <ButtonGroup aria-label={t('projects.list.view')}>
            <Button
              icon="grid-view"
              text={t('projects.list.cards')}
              active={view === 'cards'}
              aria-pressed={view === 'cards'}
              data-testid="project-view-cards"
              onClick={() => switchView('cards')}
            />
            <Button
              icon="th"
              text={t('projects.list.table')}
              active={view === 'table'}
              aria-pressed={view === 'table'}
              data-testid="project-view-table"
              onClick={() => switchView('table')}
            />
          </ButtonGroup>
          <CommandButton id="projects.new" icon="plus" intent="primary" args={{ scope }} />
          <CommandButton id="projects.switch" icon="swap-horizontal" />
          <CommandButton id="projects.apply" icon="new-person" />
        </div>
      </div>
      {view === 'table' ? (
        <DenseTable<ProjectRow>
          testId="project-table"
          columns={columns}
          identifier="name"
          fetchPage={fetchPage}
          queryKey={queryKey}
          reloadKey={reloadKey}
          sort={sort}
          onSort={(s) => setSort(s as Sort<ProjectSortKey>)}
          onOpen={open}
          filters={filterBar}
          emptyText={t('projects.list.empty')}
        />
      ) : (
        <>
          <div className="project-filters">
            {filterBar}
            <HTMLSelect
              aria-label={t('projects.list.sort')}
              data-testid="project-sort"
              value={sort.key}
              onChange={(e) => setSort((s) => ({ ...s, key: e.currentTarget.value as ProjectSortKey }))}
              options={(['name', 'number', 'created', 'updated', 'subjects'] as const).map((k) => ({
                value: k,
                label: t(`projects.list.sortKeys.${k}`),
              }))}
            />
            <Button
              icon={sort.order === 'asc' ? 'sort-asc' : 'sort-desc'}
              text={t(sort.order === 'asc' ? 'projects.list.asc' : 'projects.list.desc')}
              data-testid="project-order"
              onClick={() => setSort((s) => ({ ...s, order: s.order === 'asc' ? 'desc' : 'asc' }))}
            />
          </div>
          <ProjectCards
            fetchPage={fetchPage}
            queryKey={queryKey}
            reloadKey={reloadKey}
            currentId={current?.id ?? null}
            diseaseName={diseaseName}
            onOpen={open}
            onCurrent={makeCurrent}
          />
        </>
      )}
    </div>
  )
}

/** Cards read page after page on demand ("load more"): the same keyset query as the table. */
function ProjectCards({
  fetchPage,
  queryKey,
  reloadKey,
  currentId,
  diseaseName,
  onOpen,
  onCurrent,
}: {
  fetchPage: Fetcher<ProjectRow>
  queryKey: string
  reloadKey: number
  currentId: number | null
  diseaseName: (r: ProjectRow) => string
  onOpen: (r: ProjectRow, toSide: boolean) => void
  onCurrent: (r: ProjectRow) => void
}) {
  const t = useT()
  const [rows, setRows] = useState<ProjectRow[]>([])
  const [next, setNext] = useState<string | null>(null)
  const [total, setTotal] = useState(0)
  const [loading, setLoading] = useState(true)
  // How many pages are shown: a reload reads the same number again.
  const [pages, setPages] = useState(1)

  useEffect(() => setPages(1), [queryKey])

  useEffect(() => {
    const controller = new AbortController()
    setLoading(true)
    void (async () => {
      const found: ProjectRow[] = []
      let after: string | null = null
      let count = 0
      for (let i = 0; i < pages; i++) {
        const page = await fetchPage(after, cardPage, controller.signal)
        found.push(...page.rows)
        after = page.next
        count = page.total
        if (after === null) break
      }
      if (controller.signal.aborted) return
      setRows(found)
      setNext(after)
      setTotal(count)
      setLoading(false)
    })().catch(() => {
      if (!controller.signal.aborted) setLoading(false)
    })
    return () => controller.abort()
  }, [fetchPage, pages, reloadKey])

  if (rows.length === 0) {
    if (loading) return <Spinner className="view-spinner" aria-label={t('projects.list.loading')} />
    return <NonIdealState icon="projects" title={t('projects.list.empty')} />
  }
  return (
    <>
      <div className="project-total" role="status" data-testid="project-total">
        {t('projects.list.total', [total])}
      </div>
      <ul className="project-grid" data-testid="project-cards">
        {rows.map((r) => (
          <li key={r.id}>
            <ProjectCard
              row={r}
              active={r.id === currentId}
              disease={diseaseName(r)}
              onOpen={(toSide) => onOpen(r, toSide)}
              onCurrent={() => onCurrent(r)}
            />
          </li>
        ))}
      </ul>
      {next !== null && (
        <BusyButton
          className="project-more"
          icon="more"
          text={t('projects.list.loadMore')}
          loading={loading}
          data-testid="project-more"
          onClick={() => setPages((n) => n + 1)}
        />
      )}
    </>
  )
}

function ProjectCard({
  row: r,
  active,
  disease,
  onOpen,
  onCurrent,
}: {
  row: ProjectRow
  active: boolean
  disease: string
  onOpen: (toSide: boolean) => void
  onCurrent: () => void
}) {
  const t = useT()
  const ratio = r.plannedQuantity > 0 ? r.subjectCount / r.plannedQuantity : 0
  return (
    <Card
      className={active ? 'project-card project-card-active' : 'project-card'}
      selected={active}
      data-testid={`project-card-${r.number}`}
      data-active={active}
    >
      <div className="project-card-head">
        <Button
          variant="minimal"
          className="project-card-title"
          alignText="start"
          text={r.name}
          aria-label={t('projects.list.open', [r.name])}
          data-testid={`project-open-${r.number}`}
          onClick={(e) => onOpen(e.ctrlKey || e.metaKey)}
        />
        <Tag minimal intent={statusIntent(r.status)} data-testid="project-status">
          {t(`projects.statuses.${r.status}`)}
        </Tag>
      </div>
      <div className="project-card-sub">
        {r.number}
        {active && (
          <Tag intent="primary" icon="star" className="project-card-current">
            {t('projects.list.current')}
          </Tag>
        )}
      </div>
      <dl className="project-card-facts">
        <div>
          <dt>{t('projects.field.type')}</dt>
          <dd>{t(`projects.types.${r.type}`)}</dd>
        </div>
        <div>
          <dt>{t('projects.field.disease')}</dt>
          <dd>{disease || t('projects.none')}</dd>
        </div>
        <div>
          <dt>{t('projects.field.randomMethod')}</dt>
          <dd>{t(`projects.randomMethods.${r.randomMethod}`)}</dd>
        </div>
        {r.myRole && (
          <div>
            <dt>{t('projects.field.myRole')}</dt>
            <dd>{roleLabel(r.myRole, t)}</dd>
          </div>
        )}
      </dl>
      <div className="project-card-enrolment" data-testid="project-enrolled">
        <span>{t('projects.list.enrolled', [r.subjectCount, r.plannedQuantity])}</span>
        <ProgressBar
          value={Math.min(1, ratio)}
          intent={enrolmentIntent(ratio)}
          animate={false}
          stripes={false}
          aria-label={t('projects.field.enrolled')}
        />
      </div>
      <div className="project-card-foot">
        <Button
          size="small"
          variant="minimal"
          icon={active ? 'star' : 'star-empty'}
          text={active ? t('projects.list.current') : t('projects.list.setCurrent')}
          aria-pressed={active}
          data-testid={`project-current-${r.number}`}
          onClick={onCurrent}
        />
      </div>
    </Card>
  )
}
