import { useCallback, useEffect, useMemo, useRef, useState } from 'react'
import { Button, H3, InputGroup, Tag } from '@blueprintjs/core'
import { HTMLSelect } from '../../ui/HTMLSelect.tsx'
import { paramsOf } from '../../../contract/screenPaths.ts'
import { bilingual } from '../../../contract/bilingual.ts'
import { subjectStatuses } from '../../../contract/subjects.ts'
import {
  filterOpsFor,
  filterValueSpelling,
  type ColumnKey,
  type FilterOp,
  type HeaderColumn,
  type ListFilter,
  type SubjectRow,
} from '../../../contract/subjectList.ts'
import { subjectListView } from '../../../commands/subjectList.ts'
import { useApi, useReloadKey } from '../../api/query.ts'
import { getProject } from './detail/api/getProject.ts'
import { useLang, useT } from '../../i18n/useT.ts'
import { formatTime } from '../../lib/time.ts'
import { useCurrentProject } from '../../state/currentProject.ts'
import { provide, usePublish } from '../../state/focus.ts'
import { CommandButton } from '../../ui/CommandButton.tsx'
import { useCommandHost } from '../../ui/commandHost.tsx'
import { DenseTable, type DenseColumn, type Fetcher, type Sort } from '../../ui/DenseTable.tsx'
import { useSettled } from '../../ui/useSettled.ts'
import { ColumnChooser } from './ColumnChooser.tsx'
import { buttonAuthority, headerList, listSubjects, studyCenters, studyGroups } from './listApi.ts'
import { rememberListQuery, type ListQuery } from './listQuery.ts'
import './subjectList.css'
import { NoProjectState } from '../../ui/NoProjectState.tsx'

/** The search box settles for this long before the list asks the server. */
const typingDelay = 300

const widths: Partial<Record<string, number>> = {
  subjectNo: 150,
  center: 150,
  queue: 120,
  status: 90,
  group: 100,
  enrolledAt: 150,
  updatedAt: 150,
}

/**
 * The research-object list (SPEC §2 /patient/index, and a project's "research objects"): one
 * DenseTable of the project's subjects in the caller's centers and queues, columns from
 * getHeaderList (fixed ones plus the indicators chosen with the column chooser), server sort on
 * every column, per-column filters, center / queue / status pickers and a subject-number search,
 * keyset paged. Enter or a double click opens the subject (Ctrl/⌘ to the side). Without a
 * project in the path it shows the current project's subjects.
 */
export default function SubjectListPage({ path = '' }: { path?: string }) {
  const t = useT()
  const lang = useLang()
  const current = useCurrentProject()
  const studyId = paramsOf('patientList', path)?.studyId ?? current?.id
  if (studyId === undefined) {
    return <NoProjectState icon="people" title={t('route.patientList')} description={t('subjectList.chooseProject')} />
  }
  return <SubjectList key={studyId} studyId={studyId} path={path} lang={lang} />
}

function SubjectList({ studyId, path, lang }: { studyId: number; path: string; lang: 'zh' | 'en' }) {
  const t = useT()
  const host = useCommandHost()
  const run = host.run
  const [choosing, setChoosing] = useState(false)
  const [text, setText] = useState('')
  const q = useSettled(text, typingDelay).trim()
  const [picks, setPicks] = useState<{ centerId?: number; queueId?: number; status?: ListQuery['status'] }>({})
  const [filters, setFilters] = useState<ListFilter[]>([])
  const [sort, setSort] = useState<Sort<ColumnKey>>({ key: 'subjectNo', order: 'asc' })
  const reloadKey = useReloadKey('subjects')

  const header = useApi(['subjects', 'header', studyId], (signal) => headerList(studyId, { signal }))
  const centers = useApi(['subjects', 'centers', studyId], (signal) => studyCenters(studyId, { signal }))
  const queues = useApi(['subjects', 'queues', studyId], (signal) => studyGroups(studyId, { signal }))
  const buttons = useApi(['subjects', 'buttons', studyId], (signal) => buttonAuthority(studyId, { signal }))
  // Whose subjects these are: the list may be another project's than the current one (its action menu).
  const project = useApi(['projects', 'detail', studyId], (signal) => getProject(studyId, { signal }))
  const columnsOf = useMemo(() => header.data ?? [], [header.data])

  // A column that is no longer shown (chosen away) takes its sort and filters with it.
  const shownKeys = useMemo(() => new Set(columnsOf.map((c) => c.key)), [columnsOf])
  const liveFilters = useMemo(() => filters.filter((f) => shownKeys.has(f.column)), [filters, shownKeys])
  const liveSort: Sort<ColumnKey> = header.data === undefined || shownKeys.has(sort.key) ? sort : { key: 'subjectNo', order: 'asc' }

  const query: ListQuery = useMemo(
    () => ({
      studyId,
      sort: liveSort.key,
      order: liveSort.order,
      q: q || undefined,
      ...picks,
      filter: liveFilters.length > 0 ? JSON.stringify(liveFilters) : undefined,
    }),
    [studyId, liveSort.key, liveSort.order, q, picks, liveFilters],
  )
  useEffect(() => rememberListQuery(query), [query])
  const queryKey = JSON.stringify(query)
  const fetchPage: Fetcher<SubjectRow> = useCallback(
    (after, limit, signal) => listSubjects({ ...query, after: after ?? undefined, limit }, { signal }),
    [query],
  )

  const chooseRef = useRef(() => setChoosing(true))
  usePublish(path, undefined, [provide(subjectListView, () => ({ chooseColumns: chooseRef.current }))])

  const title = (c: HeaderColumn) => bilingual(c.titleZh, c.titleEn, lang)
  const choiceLabel = useCallback(
    (c: HeaderColumn, value: string) =>
      value
        .split('|')
        .map((code) => {
          const choice = c.choices.find((x) => x.code === code)
          return choice ? bilingual(choice.labelZh, choice.labelEn, lang) || code : code
        })
        .join(', '),
    [lang],
  )

  const columns = useMemo<DenseColumn<SubjectRow>[]>(
    () =>
      columnsOf.map((c): DenseColumn<SubjectRow> => {
        const base = { id: c.key, header: title(c), width: widths[c.key] ?? 140, sortKey: c.key }
        switch (c.key) {
          case 'subjectNo':
            return { ...base, render: (r) => r.subjectNo }
          case 'center':
            return { ...base, render: (r) => r.centerName }
          case 'queue':
            return { ...base, render: (r) => r.queueName }
          case 'status':
            return { ...base, render: (r) => t(`subjectList.statuses.${r.status}`) }
          case 'group':
            return { ...base, render: (r) => r.group ?? '' }
          case 'enrolledAt':
            return { ...base, render: (r) => formatTime(r.enrolledAt ?? undefined, '{y}-{m}-{d} {h}:{i}', lang) ?? '' }
          case 'updatedAt':
            return { ...base, render: (r) => formatTime(r.updatedAt, '{y}-{m}-{d} {h}:{i}', lang) ?? '' }
          default:
            return { ...base, render: (r) => choiceLabel(c, r.values[c.key] ?? '') }
        }
      }),
    [columnsOf, t, lang, choiceLabel],
  )

  const centerName = (id: number) => {
    const c = centers.data?.find((x) => x.id === id)
    return c ? bilingual(c.nameZh, c.nameEn, lang) : String(id)
  }
  const describe = (f: ListFilter) => {
    const c = columnsOf.find((x) => x.key === f.column)
    const name = c ? title(c) : f.column
    let value = f.value
    if (f.column === 'center') value = centerName(Number(f.value))
    else if (f.column === 'queue') value = queues.data?.find((x) => x.id === Number(f.value))?.name ?? f.value
    else if (f.column === 'status') value = t(`subjectList.statuses.${f.value}`)
    else if (c && c.choices.length > 0) value = choiceLabel(c, f.value)
    return `${name} ${t(`subjectList.filter.ops.${f.op}`)}${f.op === 'empty' || f.op === 'notEmpty' ? '' : ` ${value}`}`
  }

  const filterBar = (
    <>
      <InputGroup
        leftIcon="search"
        type="search"
        className="subject-search"
        placeholder={t('subjectList.searchPlaceholder')}
        aria-label={t('subjectList.searchPlaceholder')}
        data-testid="subject-search"
        value={text}
        onValueChange={setText}
      />
      <HTMLSelect
        aria-label={t('subjectList.column.center')}
        data-testid="filter-center"
        value={picks.centerId === undefined ? '' : String(picks.centerId)}
        onChange={(e) => setPicks((p) => ({ ...p, centerId: e.currentTarget.value ? Number(e.currentTarget.value) : undefined }))}
        options={[
          { value: '', label: t('subjectList.allCenters') },
          ...(centers.data ?? []).map((c) => ({ value: String(c.id), label: bilingual(c.nameZh, c.nameEn, lang) })),
        ]}
      />
      <HTMLSelect
        aria-label={t('subjectList.column.queue')}
        data-testid="filter-queue"
        value={picks.queueId === undefined ? '' : String(picks.queueId)}
        onChange={(e) => setPicks((p) => ({ ...p, queueId: e.currentTarget.value ? Number(e.currentTarget.value) : undefined }))}
        options={[
          { value: '', label: t('subjectList.allQueues') },
          ...(queues.data ?? []).map((g) => ({ value: String(g.id), label: g.name })),
        ]}
      />
      <HTMLSelect
        aria-label={t('subjectList.column.status')}
        data-testid="filter-status"
        value={picks.status ?? ''}
        onChange={(e) => setPicks((p) => ({ ...p, status: (e.currentTarget.value || undefined) as ListQuery['status'] }))}
        options={[
          { value: '', label: t('subjectList.allStatuses') },
          ...subjectStatuses.map((s) => ({ value: s, label: t(`subjectList.statuses.${s}`) })),
        ]}
      />
      <FilterAdder columns={columnsOf} title={title} onAdd={(f) => setFilters((fs) => [...fs, f])} />
      {liveFilters.map((f, i) => (
        <Tag
          key={`${f.column}-${f.op}-${f.value}-${i}`}
          minimal
          onRemove={() => setFilters((fs) => fs.filter((x) => x !== f))}
          data-testid={`subject-filter-${i}`}
        >
          {describe(f)}
        </Tag>
      ))}
      <Button
        variant="minimal"
        icon="filter-remove"
        text={t('common.reset')}
        data-testid="filter-reset"
        onClick={() => {
          setPicks({})
          setFilters([])
          setText('')
        }}
      />
    </>
  )

  const actions = (
    <>
      <CommandButton id="subjects.new" icon="new-person" intent="primary" />
      <CommandButton id="subjectList.chooseColumns" icon="th" label={t('subjectList.columns.open')} />
      <CommandButton id="subjectList.find" icon="search-template" iconOnly />
    </>
  )

  return (
    <div className="dense-page" data-testid="subject-list">
      <div className="dict-header">
        <H3>
          {t('route.patientList')}
          {project.data ? ` · ${project.data.name}` : ''}
        </H3>
        <div className="dict-header-actions">{actions}</div>
      </div>
      <DenseTable<SubjectRow>
        testId="subject-table"
        columns={columns}
        identifier="subjectNo"
        fetchPage={fetchPage}
        queryKey={queryKey}
        reloadKey={reloadKey}
        sort={liveSort}
        onSort={(s) => setSort(s as Sort<ColumnKey>)}
        onOpen={
          buttons.data?.view === false
            ? undefined
            : (row, toSide) => void run('subjectList.openSubject', 'button', { studyId, id: row.id, toSide })
        }
        filters={filterBar}
        emptyText={t('subjectList.empty')}
      />
      {choosing && <ColumnChooser studyId={studyId} onClose={() => setChoosing(false)} />}
    </div>
  )
}

/** Column, operator and value of one more filter; choice columns pick a choice, id columns an entry. */
function FilterAdder({
  columns,
  title,
  onAdd,
}: {
  columns: readonly HeaderColumn[]
  title: (c: HeaderColumn) => string
  onAdd: (f: ListFilter) => void
}) {
  const t = useT()
  const lang = useLang()
  const filterable = columns.filter((c) => c.key !== 'center' && c.key !== 'queue' && c.key !== 'status')
  const [key, setKey] = useState<string>('')
  const column = filterable.find((c) => c.key === key) ?? filterable[0]
  const ops = column ? filterOpsFor(column) : []
  const [op, setOp] = useState<FilterOp>('eq')
  const liveOp = ops.includes(op) ? op : (ops[0] ?? 'eq')
  const [value, setValue] = useState('')
  if (!column) return null
  const needsValue = liveOp !== 'empty' && liveOp !== 'notEmpty'
  const add = () => {
    const typed = needsValue ? filterValueSpelling(column, value) : ''
    if (needsValue && typed === '') return
    onAdd({ column: column.key, op: liveOp, value: typed })
    setValue('')
  }
  return (
    <span className="subject-filter-adder">
      <HTMLSelect
        aria-label={t('subjectList.filter.column')}
        data-testid="filter-column"
        value={column.key}
        onChange={(e) => setKey(e.currentTarget.value)}
        options={filterable.map((c) => ({ value: c.key, label: title(c) }))}
      />
      <HTMLSelect
        aria-label={t('subjectList.filter.op')}
        data-testid="filter-op"
        value={liveOp}
        onChange={(e) => setOp(e.currentTarget.value as FilterOp)}
        options={ops.map((o) => ({ value: o, label: t(`subjectList.filter.ops.${o}`) }))}
      />
      {needsValue &&
        (column.choices.length > 0 ? (
          <HTMLSelect
            aria-label={t('subjectList.filter.value')}
            data-testid="filter-value"
            value={value}
            onChange={(e) => setValue(e.currentTarget.value)}
            options={[
              { value: '', label: '' },
              ...column.choices.map((c) => ({ value: c.code, label: bilingual(c.labelZh, c.labelEn, lang) || c.code })),
            ]}
          />
        ) : (
          <InputGroup
            className="subject-filter-value"
            aria-label={t('subjectList.filter.value')}
            data-testid="filter-value"
            value={value}
            onValueChange={setValue}
            onKeyDown={(e) => {
              if (e.key === 'Enter') add()
            }}
          />
        ))}
      <Button icon="add" variant="minimal" text={t('subjectList.filter.add')} data-testid="filter-add" onClick={add} />
    </span>
  )
}
