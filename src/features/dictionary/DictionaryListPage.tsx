import { useCallback, useMemo, useState } from 'react'
import { Button, H3, InputGroup, Switch } from '@blueprintjs/core'
import { HTMLSelect } from '../../ui/HTMLSelect.tsx'
import { paramsOf } from '../../../contract/screenPaths.ts'
import { indexCategories, indicatorTypes, type Disease, type Indicator, type IndicatorSortKey } from '../../../contract/dictionary.ts'
import { useLang, useT } from '../../i18n/useT.ts'
import { formatTime } from '../../lib/time.ts'
import { useCommandHost } from '../../ui/commandHost.tsx'
import { CommandButton } from '../../ui/CommandButton.tsx'
import { DenseTable, type DenseColumn, type Fetcher, type Sort } from '../../ui/DenseTable.tsx'
import { listDiseases } from './api/listDiseases.ts'
import { listIndicators, type IndicatorQuery } from './api/listIndicators.ts'
import { ExportDialog } from './ExportDialog.tsx'
import { ImportDialog } from './ImportDialog.tsx'
import { useApi, useReloadKey } from '../../api/query.ts'
import { useSettled } from '../../ui/useSettled.ts'
import { useHolds } from '../../state/session.ts'
import { bilingual } from '../../../contract/bilingual.ts'

export interface IndicatorFilters {
  diseaseId?: number
  indexClass?: string
  category?: IndicatorQuery['category']
  type?: IndicatorQuery['type']
  status?: 0 | 1
  q?: string
}

/** Filters written in the tab's path (e.g. a disease card opens `?diseaseId=3`). */
export function filtersFromPath(path: string): IndicatorFilters {
  const diseaseId = paramsOf('dictionaryList', path)?.diseaseId
  return diseaseId === undefined ? {} : { diseaseId }
}

/** Text inputs settle for this long before the list asks the server. */
const typingDelay = 300

/**
 * The system index (SPEC §2 dictionaryList): every indicator in one DenseTable, server sorted,
 * filtered by disease, class, category, type, status and a code / name prefix, keyset paged.
 * A row's switch turns the indicator on or off; Enter or a double click opens its form.
 */
export default function DictionaryListPage({ path = '' }: { path?: string }) {
  const t = useT()
  const lang = useLang()
  const host = useCommandHost()
  const initial = useMemo(() => filtersFromPath(path), [path])
  const [filters, setFilters] = useState<IndicatorFilters>(initial)
  const [text, setText] = useState({ q: '', indexClass: '' })
  const settled = useSettled(text, typingDelay)
  const [sort, setSort] = useState<Sort<IndicatorSortKey>>({ key: 'code', order: 'asc' })
  const [dialog, setDialog] = useState<'import' | 'export' | null>(null)
  const reloadKey = useReloadKey('indicators')
  const diseases = useApi(['diseases'], (signal) => listDiseases({ signal }))
  const diseaseById = useMemo(() => new Map((diseases.data ?? []).map((d) => [d.id, d])), [diseases.data])

  const query: IndicatorQuery = useMemo(
    () => ({
      ...filters,
      q: settled.q.trim() || undefined,
      indexClass: settled.indexClass.trim() || undefined,
      sort: sort.key,
      order: sort.order,
    }),
    [filters, settled, sort],
  )
  const queryKey = JSON.stringify(query)
  const fetchPage: Fetcher<Indicator> = useCallback(
    (after, limit, signal) => listIndicators({ ...query, after: after ?? undefined, limit }, { signal }),
    [query],
  )

  const run = host.run
  const canEdit = useHolds('dictionary.edit')
  const canImport = useHolds('dictionary.import')
  const canExport = useHolds('dictionary.export')
  const columns = useMemo<DenseColumn<Indicator>[]>(
    () => [
      { id: 'code', header: 'indicator.field.code', width: 150, sortKey: 'code', render: (r) => r.code },
      { id: 'nameZh', header: 'indicator.field.nameZh', width: 180, sortKey: 'nameZh', render: (r) => r.nameZh },
      { id: 'nameEn', header: 'indicator.field.nameEn', width: 180, sortKey: 'nameEn', render: (r) => r.nameEn },
      { id: 'type', header: 'indicator.field.type', width: 90, sortKey: 'type', render: (r) => t(`indicator.types.${r.type}`) },
      { id: 'display', header: 'indicator.field.display', width: 90, render: (r) => t(`indicator.displays.${r.display}`) },
      { id: 'dataType', header: 'indicator.field.dataType', width: 80, render: (r) => t(`indicator.dataTypes.${r.dataType}`) },
      { id: 'unit', header: 'indicator.field.unit', width: 70, render: (r) => r.unit },
      { id: 'indexClass', header: 'indicator.field.indexClass', width: 120, sortKey: 'indexClass', render: (r) => r.indexClass },
      { id: 'category', header: 'indicator.field.category', width: 90, render: (r) => t(`indicator.categories.${r.category}`) },
      {
        id: 'disease',
        header: 'indicator.field.diseaseId',
        width: 120,
        render: (r) => {
          const d = r.diseaseId === null ? undefined : diseaseById.get(r.diseaseId)
          return d ? bilingual(d.name, d.nameEn, lang) : ''
        },
      },
      {
        id: 'status',
        header: 'indicator.field.status',
        width: 100,
        fixed: true,
        interactive: true,
        render: (r) => (
          <Switch
            className="dense-switch"
            checked={r.status === 1}
            aria-label={`${r.code} ${t('indicator.field.status')}`}
            data-testid={`status-${r.code}`}
            label={t(r.status === 1 ? 'indicator.statuses.1' : 'indicator.statuses.0')}
            disabled={!canEdit}
            onChange={() => void run('dictionary.setIndicatorStatus', 'button', { id: r.id, status: r.status === 1 ? 0 : 1 })}
          />
        ),
      },
      {
        id: 'updatedAt',
        header: 'dictionary.list.updatedAt',
        // A time to the minute is read whole or not at all.
        width: 140,
        fixed: true,
        sortKey: 'updatedAt',
        render: (r) => formatTime(r.updatedAt, '{y}-{m}-{d} {h}:{i}', lang) ?? '',
      },
      {
        id: 'open',
        header: 'dictionary.list.actions',
        width: 70,
        fixed: true,
        interactive: true,
        render: (r) => (
          <Button
            variant="minimal"
            size="small"
            // A reader of the dictionary opens the indicator to read it: the form is read-only for them.
            icon={canEdit ? 'edit' : 'eye-open'}
            aria-label={`${t(canEdit ? 'common.edit' : 'common.view')} ${r.code}`}
            title={t(canEdit ? 'common.edit' : 'common.view')}
            data-testid={`open-${r.code}`}
            onClick={(e) => void run('dictionary.openIndicator', 'button', { id: r.id, toSide: e.ctrlKey || e.metaKey })}
          />
        ),
      },
    ],
    [t, lang, diseaseById, run, canEdit],
  )

  const set = (patch: Partial<IndicatorFilters>) => setFilters((f) => ({ ...f, ...patch }))
  const diseaseOptions = (diseases.data ?? []).map((d: Disease) => ({
    value: String(d.id),
    label: bilingual(d.name, d.nameEn, lang),
  }))

  const filterBar = (
    <>
      <InputGroup
        leftIcon="search"
        type="search"
        className="dict-search"
        placeholder={t('dictionary.list.searchPlaceholder')}
        aria-label={t('dictionary.list.searchPlaceholder')}
        data-testid="dict-search"
        value={text.q}
        onValueChange={(q) => setText((x) => ({ ...x, q }))}
      />
      <HTMLSelect
        aria-label={t('indicator.field.diseaseId')}
        data-testid="filter-disease"
        value={filters.diseaseId === undefined ? '' : String(filters.diseaseId)}
        onChange={(e) => set({ diseaseId: e.currentTarget.value ? Number(e.currentTarget.value) : undefined })}
        options={[{ value: '', label: t('dictionary.list.allDiseases') }, ...diseaseOptions]}
      />
      <InputGroup
        className="dict-class"
        placeholder={t('indicator.field.indexClass')}
        aria-label={t('indicator.field.indexClass')}
        data-testid="filter-class"
        value={text.indexClass}
        onValueChange={(indexClass) => setText((x) => ({ ...x, indexClass }))}
      />
      <HTMLSelect
        aria-label={t('indicator.field.category')}
        data-testid="filter-category"
        value={filters.category ?? ''}
        onChange={(e) => set({ category: (e.currentTarget.value || undefined) as IndicatorFilters['category'] })}
        options={[
          { value: '', label: t('dictionary.list.allCategories') },
          ...indexCategories.filter((c) => c !== 'all').map((c) => ({ value: c, label: t(`indicator.categories.${c}`) })),
        ]}
      />
      <HTMLSelect
        aria-label={t('indicator.field.type')}
        data-testid="filter-type"
        value={filters.type ?? ''}
        onChange={(e) => set({ type: (e.currentTarget.value || undefined) as IndicatorFilters['type'] })}
        options={[
          { value: '', label: t('dictionary.list.allTypes') },
          ...indicatorTypes.map((c) => ({ value: c, label: t(`indicator.types.${c}`) })),
        ]}
      />
      <HTMLSelect
        aria-label={t('indicator.field.status')}
        data-testid="filter-status"
        value={filters.status === undefined ? '' : String(filters.status)}
        onChange={(e) => set({ status: e.currentTarget.value === '' ? undefined : (Number(e.currentTarget.value) as 0 | 1) })}
        options={[
          { value: '', label: t('dictionary.list.allStatuses') },
          { value: '1', label: t('indicator.statuses.1') },
          { value: '0', label: t('indicator.statuses.0') },
        ]}
      />
      <Button
        variant="minimal"
        icon="filter-remove"
        text={t('common.reset')}
        data-testid="filter-reset"
        onClick={() => {
          setFilters({})
          setText({ q: '', indexClass: '' })
        }}
      />
    </>
  )

  const actions = (
    <>
      <CommandButton id="dictionary.newIndicator" icon="plus" intent="primary" />
      <CommandButton id="dictionary.findIndicator" icon="search-template" iconOnly />
      {canImport && (
        <Button icon="import" text={t('dictionary.import.open')} data-testid="dict-import" onClick={() => setDialog('import')} />
      )}
      {canExport && (
        <Button icon="export" text={t('dictionary.export.open')} data-testid="dict-export" onClick={() => setDialog('export')} />
      )}
    </>
  )

  const exportFilters = {
    diseaseId: filters.diseaseId,
    category: filters.category,
    type: filters.type,
    status: filters.status,
    q: query.q,
    indexClass: query.indexClass,
  }

  return (
    <div className="dense-page" data-testid="dictionary-list">
      <div className="dict-header">
        <H3>{t('route.dictionaryList')}</H3>
        <div className="dict-header-actions">{actions}</div>
      </div>
      <DenseTable<Indicator>
        testId="indicator-table"
        columns={columns}
        identifier="code"
        fetchPage={fetchPage}
        queryKey={queryKey}
        reloadKey={reloadKey}
        sort={sort}
        onSort={(s) => setSort(s as Sort<IndicatorSortKey>)}
        onOpen={(row, toSide) => void run('dictionary.openIndicator', 'button', { id: row.id, toSide })}
        filters={filterBar}
        emptyText={t('dictionary.list.empty')}
      />
      {dialog === 'import' && (
        <ImportDialog diseases={diseases.data ?? []} defaultDiseaseId={filters.diseaseId} onClose={() => setDialog(null)} />
      )}
      {dialog === 'export' && <ExportDialog filters={exportFilters} onClose={() => setDialog(null)} />}
    </div>
  )
}
