import { useMemo, useReducer, useRef, useState } from 'react'
import { Button, H3, HTMLTable, NonIdealState, Spinner, Tab, Tabs, Tag } from '@blueprintjs/core'
import { Drawer } from '../../ui/Drawer.tsx'
import { useSnapshot } from 'valtio'
import {
  compareDialog,
  displayFormsDialog,
  entryReasonDialog,
  fieldHistoryDialog,
  subjectDetail,
  type SubjectDetailActions,
} from '../../../commands/dataEntry.ts'
import { paramsOf, screenPath } from '../../../contract/screenPaths.ts'
import type { FormNode } from '../../../contract/studyData.ts'
import { visitSlot, type VisitState } from '../../../contract/followUp.ts'
import type { ViewInfo } from '../../../contract/subjectList.ts'
import { invalidate, useApi } from '../../api/query.ts'
import { useLang, useT } from '../../i18n/useT.ts'
import { formatTime } from '../../lib/time.ts'
import { closeDialog, useDialog } from '../../state/dialogs.ts'
import { provide, requestViewFocus, useArrivalFocus, usePublish } from '../../state/focus.ts'
import { CommandButton } from '../../ui/CommandButton.tsx'
import { useCommandHost } from '../../ui/commandHost.tsx'
import { VisitStateTag } from '../../ui/VisitStateTag.tsx'
import { toast } from '../../ui/toaster.ts'
import { deleteForm } from './detail/api/deleteForm.ts'
import { getDisplayForms } from './detail/api/getDisplayForms.ts'
import { getFormTree } from './detail/api/getFormTree.ts'
import { getProject } from './detail/api/getProject.ts'
import { getSubjectSchedule } from './detail/api/getSubjectSchedule.ts'
import { listSubjectSamples } from './detail/api/listSubjectSamples.ts'
import { getViewInfo } from './detail/api/getViewInfo.ts'
import { unblindSubject } from './detail/api/unblindSubject.ts'
import { AttachmentPanel } from './AttachmentPanel.tsx'
import { CompareDialog } from './detail/CompareDialog.tsx'
import { compareState, pair, partnerOf, unpair } from './detail/compareStore.ts'
import { DisplayFormsDialog } from './detail/DisplayFormsDialog.tsx'
import { EntryPane, type EntryHandle } from './detail/EntryPane.tsx'
import { HistoryTable } from './detail/HistoryTable.tsx'
import { ReasonDialog } from './detail/ReasonDialog.tsx'
import { listQuery } from './listQuery.ts'
import './detail/subjectDetail.css'

/**
 * A research object's detail (SPEC §2 patientDetail; issue 10): its header, its forms in tree
 * order with their state, data entry in the open form, the audit trail of the subject and of a
 * field, compare with another subject or visit side by side, next / previous subject.
 */
export default function SubjectDetailPage({ path = '' }: { path?: string }) {
  const t = useT()
  const params = paramsOf('patientDetail', path)
  if (!params) return <NonIdealState icon="person" title={t('dataEntry.notFound')} />
  return (
    <Detail
      key={`${params.studyId}/${params.id}`}
      path={path}
      studyId={params.studyId}
      subjectId={params.id}
      templateId={params.templateId ?? null}
      recordId={params.recordId ?? null}
      slot={params.visitId ? visitSlot(params.visitId) : params.sampleId ? `s${params.sampleId}` : ''}
    />
  )
}

interface Selection {
  templateId: number
  recordId: number | null
  slot: string
}

/** One instance of a visit or sample form: a planned visit or a sample of the subject, entered or not. */
interface Instance {
  slot: string
  label: string
  recordId: number | null
  /** A visit's state, said beside a form still to be entered while the visit is due or overdue. */
  visitState?: VisitState
}

type NodeState = 'empty' | 'saved' | 'signed' | 'waiting'

const stateOf = (n: FormNode): NodeState =>
  n.records.length === 0 ? (n.waitingFor.length ? 'waiting' : 'empty') : n.records.every((r) => r.status === 'signed') ? 'signed' : 'saved'
const stateIntent = { empty: 'none', saved: 'primary', signed: 'success', waiting: 'warning' } as const

function Detail({
  path,
  studyId,
  subjectId,
  templateId,
  recordId,
  slot,
}: {
  path: string
  studyId: number
  subjectId: number
  templateId: number | null
  recordId: number | null
  slot: string
}) {
  const t = useT()
  const host = useCommandHost()
  const ref = { studyId, objectId: subjectId }
  const view = useApi(['subjects', 'view', studyId, subjectId], (signal) => getViewInfo(ref, { signal }))
  const project = useApi(['projects', 'detail', studyId], (signal) => getProject(studyId, { signal }))
  // A subject that cannot be read is said once, by the view's answer.
  const tree = useApi(['subjectForms', 'tree', studyId, subjectId], (signal) => getFormTree(ref, { signal, toast: false }))
  const display = useApi(['subjectForms', 'display', studyId], (signal) => getDisplayForms({ studyId }, { signal }))
  const [chosen, setChosen] = useState<Selection | null>(templateId ? { templateId, recordId, slot } : null)
  const [tab, setTab] = useState<'forms' | 'history' | 'attachments'>('forms')
  const entry = useRef<EntryHandle | null>(null)
  // The form's buttons read `entry` as they are drawn: drawn again when the open form's state changes.
  const [, formChanged] = useReducer((n: number) => n + 1, 0)
  const root = useRef<HTMLDivElement>(null)
  const lastList = useSnapshot(listQuery)
  const compare = useSnapshot(compareState)
  const comparing = partnerOf(compare.pairs, path) !== null

  // The user's choice of forms and their order (display forms); forms it does not name keep the tree's order, after them.
  const nodes = useMemo(() => {
    const chosen = display.data ?? []
    const place = new Map(chosen.map((f, i) => [f.templateId, i]))
    const hidden = new Set(chosen.filter((f) => !f.shown).map((f) => f.templateId))
    const at = (id: number) => place.get(id) ?? chosen.length
    return (tree.data?.nodes ?? []).filter((n) => !hidden.has(n.templateId)).sort((a, b) => at(a.templateId) - at(b.templateId))
  }, [tree.data, display.data])
  // Visit and sample forms are entered per planned visit and per sample of the subject.
  const hasMode = (mode: FormNode['mode']) => tree.data?.nodes.some((n) => n.mode === mode) ?? false
  const schedule = useApi(
    ['subjectForms', 'visits', studyId, subjectId],
    (signal) => getSubjectSchedule({ id: studyId, subjectId }, { signal }),
    { enabled: hasMode('visit') },
  )
  const samples = useApi(
    ['subjectForms', 'samples', studyId, subjectId],
    (signal) => listSubjectSamples({ studyId, subjectId }, { signal }),
    { enabled: hasMode('sample') && project.data?.manageBiomaterial === true },
  )
  const instancesOf = (n: FormNode): Instance[] | undefined => {
    const recordAt = (slot: string) => n.records.find((r) => r.slot === slot)?.id ?? null
    if (n.mode === 'visit' && schedule.data)
      return schedule.data.visits
        .filter((v) => v.forms.some((f) => f.templateId === n.templateId))
        .map((v) => {
          const slot = visitSlot(v.visitId)
          return { slot, label: `${v.name} · ${v.plannedDate}`, recordId: recordAt(slot), visitState: v.state }
        })
    if (n.mode === 'sample' && samples.data)
      return samples.data.rows.map((x) => ({ slot: `s${x.id}`, label: x.sampleNo, recordId: recordAt(`s${x.id}`) }))
    return undefined
  }
  const nameOf = (id: number) => tree.data?.nodes.find((n) => n.templateId === id)?.name ?? String(id)

  // The open form: the chosen one (its single record when none was named), else the first shown.
  const selection: Selection | null = useMemo(() => {
    const s = chosen ?? (nodes[0] ? { templateId: nodes[0].templateId, recordId: null, slot: '' } : null)
    if (!s) return null
    const node = tree.data?.nodes.find((n) => n.templateId === s.templateId)
    if (s.recordId === null && s.slot === '' && node?.records[0] && node.mode === 'single') return { ...s, recordId: node.records[0].id }
    return s
  }, [chosen, nodes, tree.data])
  const node = selection ? tree.data?.nodes.find((n) => n.templateId === selection.templateId) : undefined

  const me = project.data?.me
  const ctx = host.context()
  const canEnter =
    ctx.can('subject.edit') && project.data?.status === 'active' && (me === null || (me?.authorities.includes('enterData') ?? false))
  const canEditSaved = me === null || (me?.authorities.includes('editData') ?? false)

  const actions = useRef<SubjectDetailActions | null>(null)
  actions.current = {
    studyId,
    subjectId,
    // Read when a command asks: the open form changes without re-rendering the detail.
    get form() {
      return entry.current?.form ?? null
    },
    canUnblind: view.data?.canUnblind ?? false,
    listQuery: lastList.value?.studyId === studyId ? lastList.value : null,
    get comparing() {
      return entry.current?.comparing ?? false
    },
    save: async () => entry.current?.save(),
    addRow: () => entry.current?.addRow() ?? false,
    deleteRow: () => entry.current?.deleteRow() ?? 'noRow',
    focusedField: () => entry.current?.focusedField() ?? null,
    nextEmptyRequired: () => entry.current?.nextEmptyRequired() ?? false,
    nextDifference: () => entry.current?.nextDifference() ?? false,
  }
  usePublish(path, view.data ? { kind: 'subject', id: subjectId, name: view.data.subjectNo } : undefined, [
    provide(subjectDetail, () => actions.current ?? undefined),
  ])

  // Opened by a command (palette, next / previous, compare): the keyboard lands on the open form's
  // title, from where Tab reaches its buttons and fields and Alt+E / Alt+D the next field to visit;
  // without a form, on the subject's number.
  const settled = view.data !== undefined && (tree.data !== undefined || tree.error != null) && !(project.loading && !project.data)
  useArrivalFocus(path, root, settled, ['.subject-entry-head h3', '.subject-header h3'])

  const historyRequest = useDialog(fieldHistoryDialog)
  const reasonRequest = useDialog(entryReasonDialog)
  const compareRequest = useDialog(compareDialog)
  const formsRequest = useDialog(displayFormsDialog)
  const [busy, setBusy] = useState(false)

  const onReason = async (reason: string | null) => {
    const purpose = reasonRequest?.args.purpose
    const form = entry.current?.form
    if (reason === null) return closeDialog(entryReasonDialog)
    setBusy(true)
    try {
      if (purpose === 'unblind') {
        const { group } = await unblindSubject({ studyId, objectId: subjectId, reason })
        closeDialog(entryReasonDialog)
        // Stays until read: the group is what the user asked to see.
        toast(t('dataEntry.unblinded', [group.name]), 'warning', 0)
        invalidate('subjects')
        return
      }
      if (!form?.recordId) return closeDialog(entryReasonDialog)
      await deleteForm({ studyId, objectId: subjectId, recordId: form.recordId, reason })
      closeDialog(entryReasonDialog)
      toast(t('dataEntry.deleted'), 'success')
      setChosen(selection ? { templateId: selection.templateId, recordId: null, slot: '' } : null)
      invalidate('subjectForms')
      // The Delete button the dialog gives the focus back to goes with the record: the form's title takes it.
      requestViewFocus(path)
    } finally {
      setBusy(false)
    }
  }

  if (!view.data) {
    if (view.loading) return <Spinner className="view-spinner" />
    return <NonIdealState icon="person" title={t('dataEntry.notFound')} />
  }

  return (
    <div className="subject-detail" data-testid="subject-detail" ref={root}>
      <Header info={view.data} />
      <div className="subject-detail-actions">
        <CommandButton id="dataEntry.previousSubject" icon="chevron-left" iconOnly variant="minimal" />
        <CommandButton id="dataEntry.nextSubject" icon="chevron-right" iconOnly variant="minimal" />
        <CommandButton id="dataEntry.chooseForms" icon="properties" variant="minimal" />
        <CommandButton id="dataEntry.unblind" icon="unlock" intent="danger" variant="outlined" />
      </div>
      <Tabs
        id={`subject-${subjectId}`}
        selectedTabId={tab}
        onChange={(id) => setTab(id as 'forms' | 'history' | 'attachments')}
        renderActiveTabPanelOnly
      >
        <Tab
          id="forms"
          data-testid="subject-forms-tab"
          title={t('dataEntry.tabs.forms')}
          panel={
            <div className="subject-detail-body">
              <nav className="subject-forms" aria-label={t('dataEntry.forms.title')} data-testid="subject-forms">
                {tree.loading && !tree.data && <Spinner size={20} />}
                {tree.data && nodes.length === 0 && <p className="bp6-text-muted">{t('dataEntry.forms.empty')}</p>}
                <ul>
                  {nodes.map((n) => (
                    <FormItem
                      key={n.templateId}
                      node={n}
                      instances={instancesOf(n)}
                      selection={selection}
                      nameOf={nameOf}
                      onSelect={(s) => setChosen(s)}
                    />
                  ))}
                </ul>
              </nav>
              <section className="subject-entry" aria-label={node?.name ?? t('dataEntry.forms.pickForm')}>
                {/* The form waits for the project: whether the caller may enter data decides how it is read. */}
                {node && selection && !(project.loading && !project.data) ? (
                  <>
                    <div className="subject-entry-head">
                      <H3>{node.name}</H3>
                      <CommandButton id="dataEntry.saveForm" intent="primary" icon="floppy-disk" />
                      {/* Signed, the form has nothing left to sign: the button its press disabled keeps the focus. */}
                      <CommandButton id="dataEntry.signForm" icon="endorsed" variant="outlined" focusableWhenDisabled />
                      <CommandButton id="dataEntry.fieldHistory" icon="history" variant="outlined" />
                      <CommandButton id="dataEntry.compareWith" icon="comparison" variant="outlined" />
                      <CommandButton id="dataEntry.nextDifference" icon="arrow-down" variant="outlined" />
                      {comparing && (
                        <Button icon="cross" variant="minimal" text={t('dataEntry.compare.stop')} onClick={() => unpair(path)} />
                      )}
                      <CommandButton id="dataEntry.deleteForm" icon="trash" intent="danger" variant="minimal" />
                    </div>
                    <EntryPane
                      // By slot, not record: a first save (which makes the record) keeps the form, and the focus, where they are.
                      key={`${selection.templateId}/${selection.slot}`}
                      path={path}
                      studyId={studyId}
                      subjectId={subjectId}
                      node={node}
                      recordId={selection.recordId}
                      slot={selection.slot}
                      canEnter={canEnter}
                      canEditSaved={canEditSaved}
                      visit={node.mode === 'visit' ? schedule.data?.visits.find((v) => visitSlot(v.visitId) === selection.slot) : undefined}
                      nameOf={nameOf}
                      onSaved={(id) => setChosen({ templateId: node.templateId, recordId: id, slot: selection.slot })}
                      handle={entry}
                      onFormChange={formChanged}
                    />
                  </>
                ) : project.loading && !project.data ? (
                  <Spinner size={20} />
                ) : (
                  <NonIdealState icon="form" title={t('dataEntry.forms.pickForm')} />
                )}
              </section>
            </div>
          }
        />
        <Tab
          id="history"
          title={t('dataEntry.tabs.history')}
          panel={<HistoryTable studyId={studyId} subjectId={subjectId} />}
          data-testid="subject-history-tab"
        />
        <Tab
          id="attachments"
          title={t('dataEntry.tabs.attachments')}
          panel={<AttachmentPanel studyId={studyId} subjectId={subjectId} recordId={selection?.recordId ?? undefined} />}
          data-testid="subject-attachments-tab"
        />
      </Tabs>

      {historyRequest?.args.path === path && (
        <Drawer
          isOpen
          onClose={() => closeDialog(fieldHistoryDialog)}
          title={t('dataEntry.history.title', [historyRequest.args.label])}
          size="60%"
        >
          <div className="subject-history-drawer" data-testid="field-history">
            <HistoryTable
              studyId={studyId}
              subjectId={subjectId}
              recordId={historyRequest.args.recordId}
              field={historyRequest.args.field}
              rowId={historyRequest.args.rowId ?? undefined}
            />
          </div>
        </Drawer>
      )}
      {reasonRequest?.args.path === path && (
        <ReasonDialog key={reasonRequest.seq} purpose={reasonRequest.args.purpose} busy={busy} onDone={(r) => void onReason(r)} />
      )}
      {compareRequest?.args.path === path && selection && (
        <CompareDialog
          studyId={studyId}
          subjectId={subjectId}
          records={node?.records ?? []}
          currentRecordId={selection.recordId}
          onClose={() => closeDialog(compareDialog)}
          onPick={(target) => {
            closeDialog(compareDialog)
            const other = screenPath('patientDetail', {
              studyId,
              id: target.subjectId,
              templateId: selection.templateId,
              recordId: target.recordId,
            })
            pair(path, other)
            host.context().panes.openToSide(other)
          }}
        />
      )}
      {formsRequest?.args.path === path && display.data && (
        <DisplayFormsDialog studyId={studyId} forms={display.data} onClose={() => closeDialog(displayFormsDialog)} />
      )}
    </div>
  )
}

function FormItem({
  node,
  instances,
  selection,
  nameOf,
  onSelect,
}: {
  node: FormNode
  /** The planned visits or samples this form is entered for; undefined: only the saved records are known. */
  instances: Instance[] | undefined
  selection: Selection | null
  nameOf(id: number): string
  onSelect(s: Selection): void
}) {
  const t = useT()
  const lang = useLang()
  const state = stateOf(node)
  const here = selection?.templateId === node.templateId
  const single = node.mode === 'single'
  return (
    <li data-testid={`subject-form-${node.templateId}`} data-state={state}>
      <Button
        variant="minimal"
        alignText="start"
        fill
        active={here && (single || selection?.recordId === null)}
        aria-current={here ? 'true' : undefined}
        onClick={() => {
          // A visit's or a sample's instance is named by its visit or sample: the first saved one opens here.
          const first = node.records[0]
          if (single) onSelect({ templateId: node.templateId, recordId: first?.id ?? null, slot: '' })
          else if (first) onSelect({ templateId: node.templateId, recordId: first.id, slot: first.slot })
          else if (instances?.[0]) onSelect({ templateId: node.templateId, recordId: null, slot: instances[0].slot })
        }}
        title={node.waitingFor.length ? t('dataEntry.forms.waitingFor', [node.waitingFor.map(nameOf).join(', ')]) : undefined}
      >
        <span className="subject-form-name">{node.name}</span>
        <Tag minimal intent={stateIntent[state]}>
          {t(`dataEntry.forms.state.${state}`)}
        </Tag>
      </Button>
      {!single && instances && (
        <ul className="subject-form-instances">
          {instances.map((x) => {
            const here = selection?.templateId === node.templateId && selection.slot === x.slot
            return (
              <li key={x.slot}>
                <Button
                  variant="minimal"
                  size="small"
                  alignText="start"
                  fill
                  active={here}
                  aria-current={here ? 'true' : undefined}
                  icon={x.recordId === null ? 'circle' : 'tick-circle'}
                  text={x.label}
                  endIcon={
                    x.recordId === null && (x.visitState === 'due' || x.visitState === 'overdue') ? (
                      <VisitStateTag state={x.visitState} testId={`subject-instance-state-${node.templateId}-${x.slot}`} />
                    ) : undefined
                  }
                  data-testid={`subject-instance-${node.templateId}-${x.slot}`}
                  onClick={() => onSelect({ templateId: node.templateId, recordId: x.recordId, slot: x.slot })}
                />
              </li>
            )
          })}
          {instances.length === 0 && <li className="bp6-text-muted">{t(`dataEntry.forms.from.${node.mode}`)}</li>}
        </ul>
      )}
      {!single && !instances && (
        <ul className="subject-form-instances">
          {node.records.map((r, i) => (
            <li key={r.id}>
              <Button
                variant="minimal"
                size="small"
                alignText="start"
                fill
                active={selection?.recordId === r.id}
                aria-current={selection?.recordId === r.id ? 'true' : undefined}
                text={`${t('dataEntry.forms.instance', [i + 1])} · ${formatTime(r.updatedAt, '{y}-{m}-{d}', lang) ?? ''}`}
                onClick={() => onSelect({ templateId: node.templateId, recordId: r.id, slot: r.slot })}
              />
            </li>
          ))}
          {node.records.length === 0 && <li className="bp6-text-muted">{t(`dataEntry.forms.from.${node.mode}`)}</li>}
        </ul>
      )}
    </li>
  )
}

/** getViewInfo: number, center, queue, status, group (or blinded), enrolment, checklist answers. */
function Header({ info }: { info: ViewInfo }) {
  const t = useT()
  const lang = useLang()
  const lines = (text: string) => text.split('\n').filter((l) => l.trim() !== '')
  const answer = (v: boolean | undefined) => (v === undefined ? '' : t(v ? 'dataEntry.header.yes' : 'dataEntry.header.no'))
  const checklist = (title: string, text: string, answers: readonly boolean[]) =>
    lines(text).length > 0 && (
      <HTMLTable compact className="subject-checklist">
        <thead>
          <tr>
            <th colSpan={2}>{title}</th>
          </tr>
        </thead>
        <tbody>
          {lines(text).map((l, i) => (
            <tr key={i}>
              <td>{l}</td>
              <td>{answer(answers[i])}</td>
            </tr>
          ))}
        </tbody>
      </HTMLTable>
    )
  const facts: [string, string][] = [
    ['dataEntry.header.center', info.centerName],
    ['dataEntry.header.queue', info.queueName],
    ['dataEntry.header.status', t(`dataEntry.header.statuses.${info.status}`)],
    // No group: kept blind (the caller may unblind), or not randomized.
    // A blinded reader is told the group is hidden, never that there is none.
    ['dataEntry.header.group', info.group ?? t(info.blinded ? 'dataEntry.header.blinded' : 'dataEntry.header.noGroup')],
    ['dataEntry.header.enrolledAt', formatTime(info.enrolledAt, undefined, lang) ?? ''],
    ['dataEntry.header.enrolledBy', info.enrolledBy],
  ]
  return (
    <header className="subject-header" data-testid="subject-header">
      <H3>
        {t('dataEntry.header.subjectNo')}: <span data-testid="subject-no">{info.subjectNo}</span> <Tag minimal>{info.projectName}</Tag>
      </H3>
      <dl className="subject-facts">
        {facts.map(([k, v]) => (
          <div key={k}>
            <dt>{t(k)}</dt>
            <dd>{v}</dd>
          </div>
        ))}
      </dl>
      {checklist(t('dataEntry.header.inclusion'), info.entryCondition, info.checklist.inclusion)}
      {checklist(t('dataEntry.header.exclusion'), info.excludeCondition, info.checklist.exclusion)}
    </header>
  )
}
