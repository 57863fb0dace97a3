import { useCallback, useMemo, useRef, useState } from 'react'
import { Button, H3, InputGroup, NonIdealState, Tag } from '@blueprintjs/core'
import { HTMLSelect } from '../../ui/HTMLSelect.tsx'
import { useSnapshot } from 'valtio'
import { refusalOf, sampleDialog, sampleList, sampleStatusDialog } from '../../../commands/samples.ts'
import { bilingual } from '../../../contract/bilingual.ts'
import { paramsOf } from '../../../contract/screenPaths.ts'
import {
  sampleStatuses,
  sampleTypes,
  type Sample,
  type SampleSortKey,
  type SampleStatus,
  type SampleType,
} from '../../../contract/samples.ts'
import { useApi, useReloadKey } from '../../api/query.ts'
import { useLang, useT } from '../../i18n/useT.ts'
import { formatTime } from '../../lib/time.ts'
import { useCurrentProject } from '../../state/currentProject.ts'
import { closeDialog, useDialog } from '../../state/dialogs.ts'
import { provide, usePublish } from '../../state/focus.ts'
import { workspace } from '../../state/workspace.ts'
import { CommandButton } from '../../ui/CommandButton.tsx'
import { useCommandHost } from '../../ui/commandHost.tsx'
import { DenseTable, type DenseColumn, type Fetcher, type Sort } from '../../ui/DenseTable.tsx'
import { useSettled } from '../../ui/useSettled.ts'
import { getProject } from './api/getProject.ts'
import { getSampleTree } from './api/getSampleTree.ts'
import { listSamples } from './api/listSamples.ts'
import { SampleDialog } from './SampleDialog.tsx'
import { SampleStatusDialog } from './SampleStatusDialog.tsx'
import './samples.css'
import { NoProjectState } from '../../ui/NoProjectState.tsx'

/** The number search settles for this long before the list asks the server. */
const typingDelay = 300

const statusIntent: Record<SampleStatus, 'success' | 'warning' | 'danger'> = { available: 'success', used: 'warning', destroyed: 'danger' }

interface Filters {
  type?: SampleType
  status?: SampleStatus
  centerId?: number
}

/**
 * The sample list (SPEC /sample/index) of project `studyId`, or of the current project: one
 * DenseTable, server sorted, filtered by number prefix, type, status and center, keyset paged,
 * only the samples of the caller's queues and centers. Each row says which sample CRFs are filled
 * (a click opens the CRF in the subject's detail) and offers aliquot, edit, status and delete;
 * the selected row's aliquot tree shows below. Enter or a double click edits the sample.
 */
export default function SampleListPage({ path = '' }: { path?: string }) {
  const t = useT()
  const lang = useLang()
  const host = useCommandHost()
  const current = useCurrentProject()
  const params = paramsOf('sampleList', path)
  const studyId = params?.studyId ?? current?.id ?? null
  const project = useApi(['projects', studyId], (signal) => getProject(studyId!, { signal }), { enabled: studyId !== null })
  const managed = project.data?.manageBiomaterial === true

  const [filters, setFilters] = useState<Filters>({})
  const [text, setText] = useState('')
  const q = useSettled(text.trim(), typingDelay)
  const [sort, setSort] = useState<Sort<SampleSortKey>>({ key: 'sampleNo', order: 'asc' })
  const reloadKey = useReloadKey('samples')
  const [selected, setSelected] = useState<Sample | null>(null)
  const selectedRef = useRef<Sample | null>(null)
  selectedRef.current = selected

  usePublish(path, undefined, studyId === null ? [] : [provide(sampleList, () => ({ studyId, selected: () => selectedRef.current }))])

  const query = useMemo(() => ({ ...filters, q: q || undefined, sort: sort.key, order: sort.order }), [filters, q, sort])
  const fetchPage: Fetcher<Sample> = useCallback(
    (after, limit, signal) => listSamples({ studyId: studyId!, ...query, after: after ?? undefined, limit }, { signal }),
    [studyId, query],
  )

  // The tree of the sample the path names, read again after each change, else of the selected
  // row, read again once the list has read that row again (its aliquots, its update). Not a query
  // of 'samples', which a change reloads at once: it asked for a row just deleted, still selected.
  const treeOf = params?.id ?? selected?.id ?? null
  const treeRead = params?.id !== undefined ? reloadKey : `${selected?.aliquots} ${selected?.updatedAt}`
  const tree = useApi(['sampleTree', studyId, treeOf, treeRead], (signal) => getSampleTree(studyId!, treeOf!, { signal }), {
    enabled: managed && treeOf !== null,
  })

  const run = host.run
  const columns = useMemo<DenseColumn<Sample>[]>(() => {
    if (studyId === null) return []
    const ids = (r: Sample) => ({ studyId, sampleId: r.id })
    return [
      {
        id: 'sampleNo',
        header: 'samples.field.sampleNo',
        width: 160,
        sortKey: 'sampleNo',
        render: (r) => (
          <span data-testid="sample-row" data-no={r.sampleNo}>
            {r.sampleNo}
          </span>
        ),
      },
      { id: 'subjectNo', header: 'samples.field.subjectNo', width: 120, render: (r) => r.subjectNo },
      { id: 'center', header: 'samples.field.center', width: 70, render: (r) => r.centerCode },
      { id: 'queue', header: 'samples.field.queue', width: 90, render: (r) => r.queueName },
      { id: 'parent', header: 'samples.field.parent', width: 140, render: (r) => r.parentNo ?? '' },
      { id: 'type', header: 'samples.field.type', width: 90, render: (r) => t(`samples.types.${r.type}`) },
      {
        id: 'collectedAt',
        header: 'samples.field.collectedAt',
        width: 150,
        fixed: true,
        sortKey: 'collectedAt',
        render: (r) => r.collectedAt ?? '',
      },
      {
        id: 'quantity',
        header: 'samples.field.quantity',
        // A quantity and its unit are shown whole ('0.5 mL' was cut to '0.5 …').
        width: 80,
        fixed: true,
        render: (r) => (r.quantity === null ? '' : `${r.quantity}${r.unit ? ` ${t(`samples.units.${r.unit}`)}` : ''}`),
      },
      {
        id: 'location',
        header: 'samples.field.location',
        // Freezer / rack / box / position shown whole; an empty place is — so that the others keep theirs.
        width: 150,
        fixed: true,
        render: (r) => {
          const places = [r.freezer, r.rack, r.box, r.position]
          return places.every((x) => x === '') ? '' : places.map((x) => x || '—').join(' / ')
        },
      },
      {
        id: 'status',
        header: 'samples.field.status',
        // Its tag keeps the status's whole word.
        width: 96,
        fixed: true,
        render: (r) => (
          <Tag minimal intent={statusIntent[r.status]}>
            {t(`samples.statuses.${r.status}`)}
          </Tag>
        ),
      },
      {
        id: 'forms',
        header: 'samples.field.forms',
        width: 180,
        interactive: true,
        render: (r) => (
          <span className="sample-forms">
            {r.forms.map((f) => (
              <Button
                key={f.templateId}
                size="small"
                variant="minimal"
                icon={f.status === 'empty' ? 'circle' : f.status === 'signed' ? 'endorsed' : 'tick-circle'}
                intent={f.status === 'empty' ? 'none' : 'success'}
                text={f.name}
                title={t(
                  f.status === 'empty'
                    ? 'samples.list.formEmpty'
                    : f.status === 'signed'
                      ? 'samples.list.formSigned'
                      : 'samples.list.formSaved',
                  [f.name],
                )}
                aria-label={t(
                  f.status === 'empty'
                    ? 'samples.list.formEmpty'
                    : f.status === 'signed'
                      ? 'samples.list.formSigned'
                      : 'samples.list.formSaved',
                  [f.name],
                )}
                data-testid={`sample-crf-${r.sampleNo}-${f.templateId}`}
                data-state={f.status}
                onClick={(e) =>
                  void run('samples.openCrf', 'button', {
                    studyId,
                    subjectId: r.subjectId,
                    templateId: f.templateId,
                    sampleId: r.id,
                    recordId: f.recordId ?? undefined,
                    toSide: e.ctrlKey || e.metaKey,
                  })
                }
              />
            ))}
          </span>
        ),
      },
      { id: 'aliquots', header: 'samples.field.aliquots', width: 70, render: (r) => r.aliquots },
      {
        id: 'updatedAt',
        header: 'samples.field.updatedAt',
        width: 150,
        fixed: true,
        sortKey: 'updated',
        render: (r) => formatTime(r.updatedAt, '{y}-{m}-{d} {h}:{i}', lang) ?? '',
      },
      {
        id: 'actions',
        header: 'samples.field.actions',
        width: 130,
        fixed: true,
        interactive: true,
        render: (r) => {
          const refused = (action: 'aliquot' | 'status') => {
            const key = refusalOf(r, action)
            return key === null ? null : t(key)
          }
          // Focusable when refused: destroying from the status dialog gives the focus back to a button it has just disabled.
          return (
            <span className="row-actions">
              <CommandButton
                id="samples.newAliquot"
                args={{ studyId, parentId: r.id }}
                refusal={refused('aliquot')}
                focusableWhenDisabled
                icon="fork"
                variant="minimal"
                size="small"
                iconOnly
              />
              <CommandButton id="samples.edit" args={ids(r)} icon="edit" variant="minimal" size="small" iconOnly />
              <CommandButton
                id="samples.setStatus"
                args={ids(r)}
                refusal={refused('status')}
                focusableWhenDisabled
                icon="exchange"
                variant="minimal"
                size="small"
                iconOnly
              />
              <CommandButton id="samples.delete" args={ids(r)} icon="trash" intent="danger" variant="minimal" size="small" iconOnly />
            </span>
          )
        },
      },
    ]
  }, [t, lang, run, studyId])

  const { focused } = useSnapshot(workspace)
  const editRequest = useDialog(sampleDialog)
  const statusRequest = useDialog(sampleStatusDialog)
  const closeEdit = useCallback(() => closeDialog(sampleDialog), [])
  const closeStatus = useCallback(() => closeDialog(sampleStatusDialog), [])
  const mine = <A extends { studyId: number }>(r: { args: A; seq: number } | null) =>
    r && focused === path && r.args.studyId === studyId ? r : null
  const edit = mine(editRequest)
  const status = mine(statusRequest)

  if (studyId === null) {
    return <NoProjectState icon="lab-test" title={t('route.sampleList')} description={t('samples.list.noProject')} />
  }
  if (project.data && !managed) {
    return <NonIdealState icon="lab-test" title={project.data.name} description={t('samples.list.notManaged')} />
  }

  const set = (patch: Partial<Filters>) => setFilters((f) => ({ ...f, ...patch }))
  const filterBar = (
    <>
      <InputGroup
        className="dict-search"
        leftIcon="search"
        type="search"
        placeholder={t('samples.list.search')}
        aria-label={t('samples.list.search')}
        data-testid="sample-search"
        value={text}
        onValueChange={setText}
      />
      <HTMLSelect
        aria-label={t('samples.field.type')}
        data-testid="sample-filter-type"
        value={filters.type ?? ''}
        onChange={(e) => set({ type: (e.currentTarget.value || undefined) as SampleType | undefined })}
        options={[
          { value: '', label: t('samples.list.allTypes') },
          ...sampleTypes.map((x) => ({ value: x, label: t(`samples.types.${x}`) })),
        ]}
      />
      <HTMLSelect
        aria-label={t('samples.field.status')}
        data-testid="sample-filter-status"
        value={filters.status ?? ''}
        onChange={(e) => set({ status: (e.currentTarget.value || undefined) as SampleStatus | undefined })}
        options={[
          { value: '', label: t('samples.list.allStatuses') },
          ...sampleStatuses.map((x) => ({ value: x, label: t(`samples.statuses.${x}`) })),
        ]}
      />
      <HTMLSelect
        aria-label={t('samples.field.center')}
        data-testid="sample-filter-center"
        value={filters.centerId === undefined ? '' : String(filters.centerId)}
        onChange={(e) => set({ centerId: e.currentTarget.value ? Number(e.currentTarget.value) : undefined })}
        options={[
          { value: '', label: t('samples.list.allCenters') },
          ...(project.data?.centers ?? []).map((c) => ({ value: String(c.id), label: `${c.code} ${bilingual(c.nameZh, c.nameEn, lang)}` })),
        ]}
      />
      <Button
        variant="minimal"
        icon="filter-remove"
        text={t('common.reset')}
        onClick={() => {
          setFilters({})
          setText('')
        }}
      />
    </>
  )

  return (
    <div className="dense-page sample-page" data-testid="sample-list">
      <div className="dict-header">
        <H3>
          {t('route.sampleList')}
          {project.data ? ` · ${project.data.name}` : ''}
        </H3>
        <div className="dict-header-actions">
          <CommandButton id="samples.new" args={{ studyId }} icon="plus" intent="primary" />
        </div>
      </div>
      {managed && (
        <DenseTable<Sample>
          testId="sample-table"
          columns={columns}
          identifier="sampleNo"
          fetchPage={fetchPage}
          queryKey={JSON.stringify({ studyId, query })}
          reloadKey={reloadKey}
          sort={sort}
          onSort={(s) => setSort(s as Sort<SampleSortKey>)}
          onOpen={(row) => void run('samples.edit', 'button', { studyId, sampleId: row.id })}
          onSelect={setSelected}
          filters={filterBar}
          emptyText={t('samples.list.empty')}
        />
      )}
      {managed && tree.data && tree.data.rows.length > 1 && (
        <section className="sample-tree" aria-label={t('samples.list.tree')} data-testid="sample-tree">
          <h4>{t('samples.list.tree')}</h4>
          <ul>
            {tree.data.rows.map((r) => (
              <li key={r.id} style={{ paddingInlineStart: `${r.depth * 1.25}rem` }} aria-current={r.id === treeOf ? 'true' : undefined}>
                {r.sampleNo} · {t(`samples.types.${r.type}`)} · {t(`samples.statuses.${r.status}`)}
                {r.quantity === null ? '' : ` · ${r.quantity}${r.unit ? ` ${t(`samples.units.${r.unit}`)}` : ''}`}
              </li>
            ))}
          </ul>
        </section>
      )}
      {edit && <SampleDialog key={edit.seq} args={edit.args} onClose={closeEdit} />}
      {status && <SampleStatusDialog key={status.seq} studyId={status.args.studyId} sample={status.args.sample} onClose={closeStatus} />}
    </div>
  )
}
