import { useCallback, useMemo, useRef, useState } from 'react'
import {
  Button,
  Callout,
  Checkbox,
  DialogBody,
  DialogFooter,
  FormGroup,
  H3,
  HTMLTable,
  InputGroup,
  NonIdealState,
  Spinner,
  Tab,
  Tabs,
  Tag,
} from '@blueprintjs/core'
import { HTMLSelect } from '../../ui/HTMLSelect.tsx'
import { Dialog } from '../../ui/Dialog.tsx'
import { scheduleDialog, visitDialog } from '../../../commands/followUp.ts'
import { bilingual } from '../../../contract/bilingual.ts'
import { followUpLimits, visitInput, type DueRow, type DueState, type VisitInput, type VisitPlan } from '../../../contract/followUp.ts'
import { paramsOf } from '../../../contract/screenPaths.ts'
import { useApi, useReloadKey } from '../../api/query.ts'
import { joinList } from '../../i18n/index.ts'
import { useLang, useT } from '../../i18n/useT.ts'
import { closeDialog, useDialog } from '../../state/dialogs.ts'
import { usePublish } from '../../state/focus.ts'
import { useCommandHost } from '../../ui/commandHost.tsx'
import { CommandButton } from '../../ui/CommandButton.tsx'
import { useFocusAfterRemoval } from '../../ui/focusAfterRemoval.ts'
import { DenseTable, type DenseColumn, type Fetcher } from '../../ui/DenseTable.tsx'
import { NumberTextInput } from '../../ui/NumberTextInput.tsx'
import { getProject } from './api/getProject.ts'
import { getSubjectSchedule } from './api/getSubjectSchedule.ts'
import { getVisitPlan } from './api/getVisitPlan.ts'
import { listCenters } from './api/listCenters.ts'
import { listDue } from './api/listDue.ts'
import { listQueues } from './api/listQueues.ts'
import './followUp.css'
import { useCurrentProject } from '../../state/currentProject.ts'
import { NoProjectState } from '../../ui/NoProjectState.tsx'
import { BusyButton } from '../../ui/BusyButton.tsx'
import { VisitStateTag } from '../../ui/VisitStateTag.tsx'

type TabId = DueState | 'schedule'

/**
 * Follow-up management of a project (SPEC §2 project action menu; issue 10 item 10): the due and
 * overdue visits per center, queue and visit as keyset-paged lists (Enter or a double click opens
 * the subject, Ctrl+Enter to the side), and the visit schedule with its editor.
 */
export default function FollowUpPage({ path = '' }: { path?: string }) {
  const t = useT()
  const current = useCurrentProject()
  const id = paramsOf('followUp', path)?.id ?? current?.id
  if (id === undefined) return <NoProjectState icon="calendar" title={t('route.followUp')} description={t('noProject.followUp')} />
  return <FollowUpScreen key={id} id={id} path={path} />
}

function FollowUpScreen({ id, path }: { id: number; path: string }) {
  const t = useT()
  const project = useApi(['followUp', 'project', id], (signal) => getProject(id, { signal }))
  const plan = useApi(['followUp', 'visits', id], (signal) => getVisitPlan(id, { signal }))
  const [tab, setTab] = useState<TabId>('due')
  const p = project.data
  usePublish(path, p ? { kind: 'project', id: p.id, name: p.name } : undefined)

  if (!p || !plan.data) {
    if (project.loading || plan.loading) return <Spinner className="view-spinner" />
    return <NonIdealState icon="error" title={t('message.loadError')} />
  }
  const configures = (p.me === null || p.me.authorities.includes('configure')) && p.status !== 'closed'
  return (
    <div className="followup-page" data-testid="followup-page">
      <div className="dict-header">
        <H3>{t('followUp.title', [p.name])}</H3>
        <div className="dict-header-actions">
          <CommandButton id="followUp.openProgress" icon="timeline-bar-chart" args={{ id: p.id }} />
        </div>
      </div>
      {/* disabled={false} written out: Blueprint's arrow keys move only between tabs marked aria-disabled="false". */}
      <Tabs id="followup-tabs" selectedTabId={tab} onChange={(next) => setTab(next as TabId)} renderActiveTabPanelOnly>
        <Tab id="due" disabled={false} title={t('followUp.tabs.due')} panel={<DueList projectId={p.id} state="due" plan={plan.data} />} />
        <Tab
          id="overdue"
          disabled={false}
          title={t('followUp.tabs.overdue')}
          panel={<DueList projectId={p.id} state="overdue" plan={plan.data} />}
        />
        <Tab
          id="schedule"
          disabled={false}
          title={t('followUp.tabs.schedule')}
          panel={<Schedule projectId={p.id} plan={plan.data} configures={configures} />}
        />
      </Tabs>
      <VisitDialogHost projectId={p.id} plan={plan.data} />
      <ScheduleDialogHost projectId={p.id} />
    </div>
  )
}

const optional = (v: string) => (v === '' ? undefined : Number(v))

function DueList({ projectId, state, plan }: { projectId: number; state: DueState; plan: VisitPlan }) {
  const t = useT()
  const lang = useLang()
  const host = useCommandHost()
  const reloadKey = useReloadKey('followUp')
  const centers = useApi(['followUp', 'centers', projectId], (signal) => listCenters(projectId, { signal }))
  const queues = useApi(['followUp', 'queues', projectId], (signal) => listQueues(projectId, { signal }))
  const [filter, setFilter] = useState({ centerId: '', queueId: '', visitId: '' })
  const [today, setToday] = useState<string | null>(null)

  const fetchPage: Fetcher<DueRow> = useCallback(
    async (after, limit, signal) => {
      const page = await listDue(
        projectId,
        {
          state,
          centerId: optional(filter.centerId),
          queueId: optional(filter.queueId),
          visitId: optional(filter.visitId),
          after: after ?? undefined,
          limit,
        },
        { signal },
      )
      setToday(page.today)
      return page
    },
    [projectId, state, filter],
  )

  const columns: DenseColumn<DueRow>[] = useMemo(
    () => [
      { id: 'subjectNo', header: 'followUp.column.subjectNo', width: 115, render: (r) => r.subjectNo },
      { id: 'visit', header: 'followUp.column.visit', width: 150, render: (r) => r.visitName },
      { id: 'plannedDate', header: 'followUp.column.plannedDate', width: 100, fixed: true, render: (r) => r.plannedDate },
      {
        id: 'window',
        header: 'followUp.column.window',
        width: 180,
        fixed: true,
        render: (r) => t('followUp.window', [r.windowStart, r.windowEnd]),
      },
      // A center's English name is half again as wide as its Chinese one: the queue takes the rest in Chinese.
      {
        id: 'center',
        header: 'followUp.column.center',
        width: lang === 'en' ? 270 : 200,
        render: (r) => `${bilingual(r.centerNameZh, r.centerNameEn, lang)} (${r.centerCode})`,
      },
      { id: 'queue', header: 'followUp.column.queue', width: lang === 'en' ? 100 : 170, render: (r) => r.queueName },
      { id: 'missing', header: 'followUp.column.missing', width: 130, fixed: true, render: (r) => r.missing },
      {
        id: 'schedule',
        header: 'followUp.column.schedule',
        width: 50,
        fixed: true,
        interactive: true,
        render: (r) => (
          <CommandButton
            id="followUp.showSchedule"
            icon="calendar"
            variant="minimal"
            size="small"
            iconOnly
            args={{ studyId: projectId, id: r.subjectId, subjectNo: r.subjectNo }}
          />
        ),
      },
    ],
    [t, lang, projectId],
  )

  const select = (key: keyof typeof filter, label: string, options: { value: string; label: string }[]) => (
    <label className="followup-filter">
      <span>{label}</span>
      <HTMLSelect
        value={filter[key]}
        data-testid={`followup-filter-${key}`}
        onChange={(e) => setFilter({ ...filter, [key]: e.currentTarget.value })}
        options={[{ value: '', label: t('followUp.filter.all') }, ...options]}
      />
    </label>
  )

  return (
    <div className="followup-list" data-testid={`followup-${state}`}>
      <DenseTable
        columns={columns}
        identifier="subjectNo"
        fetchPage={fetchPage}
        queryKey={JSON.stringify([state, filter])}
        reloadKey={reloadKey}
        sort={{ key: 'plannedDate', order: 'asc' }}
        onSort={() => undefined}
        onOpen={(row, toSide) => void host.run('followUp.openSubject', 'button', { studyId: projectId, id: row.subjectId, toSide })}
        emptyText={t(state === 'due' ? 'followUp.emptyDue' : 'followUp.emptyOverdue')}
        testId={`followup-table-${state}`}
        filters={
          <>
            {select(
              'centerId',
              t('followUp.filter.center'),
              (centers.data ?? []).map((c) => ({ value: String(c.id), label: `${bilingual(c.nameZh, c.nameEn, lang)} (${c.code})` })),
            )}
            {select(
              'queueId',
              t('followUp.filter.queue'),
              (queues.data ?? []).map((q) => ({ value: String(q.id), label: q.name })),
            )}
            {select(
              'visitId',
              t('followUp.filter.visit'),
              plan.visits.map((v) => ({ value: String(v.id), label: v.name })),
            )}
          </>
        }
        actions={today && <Tag minimal>{t('followUp.today', [today])}</Tag>}
      />
    </div>
  )
}

function Schedule({ projectId, plan, configures }: { projectId: number; plan: VisitPlan; configures: boolean }) {
  const t = useT()
  const lang = useLang()
  const root = useRef<HTMLDivElement>(null)
  // A deleted visit's row leaves with the focus: it goes to the row now in its place, else to New visit.
  const rows = useFocusAfterRemoval<HTMLTableSectionElement>(plan.visits, '[data-testid="cmd-followUp.editVisit"]', () =>
    root.current?.querySelector<HTMLElement>('[data-testid="cmd-followUp.newVisit"]'),
  )
  return (
    <div className="followup-schedule" data-testid="followup-schedule" ref={root}>
      {plan.followUpForms.length === 0 && (
        <Callout intent="warning" data-testid="followup-no-forms">
          {t('followUp.schedule.noForms')}
        </Callout>
      )}
      {!configures && <p className="bp6-text-muted">{t('followUp.schedule.readOnly')}</p>}
      {configures && plan.followUpForms.length > 0 && (
        <div className="followup-schedule-actions">
          <CommandButton id="followUp.newVisit" icon="plus" intent="primary" args={{ id: projectId }} />
        </div>
      )}
      {plan.visits.length === 0 ? (
        <NonIdealState icon="calendar" title={t('followUp.schedule.empty')} />
      ) : (
        <HTMLTable compact striped className="followup-table" data-testid="followup-visits">
          <thead>
            <tr>
              <th>{t('followUp.schedule.name')}</th>
              <th>{t('followUp.schedule.dayOffset')}</th>
              <th>{t('followUp.schedule.windowBefore')}</th>
              <th>{t('followUp.schedule.windowAfter')}</th>
              <th>{t('followUp.schedule.forms')}</th>
              <th>{t('followUp.schedule.records')}</th>
              {configures && <th>{t('followUp.schedule.actions')}</th>}
            </tr>
          </thead>
          <tbody ref={rows.ref} onFocus={rows.onFocus}>
            {plan.visits.map((v) => (
              <tr key={v.id} data-testid={`followup-visit-${v.id}`} data-name={v.name}>
                <td>{v.name}</td>
                <td>{v.dayOffset}</td>
                <td>{v.windowBefore}</td>
                <td>{v.windowAfter}</td>
                <td>
                  {joinList(
                    v.forms.map((f) => f.name),
                    lang,
                  )}
                </td>
                <td>{v.records}</td>
                {configures && (
                  <td className="followup-row-actions">
                    <CommandButton
                      id="followUp.editVisit"
                      icon="edit"
                      variant="minimal"
                      size="small"
                      iconOnly
                      args={{ id: projectId, visitId: v.id }}
                    />
                    {/* A visit with records cannot be deleted (the server refuses it too). */}
                    {v.records === 0 && (
                      <CommandButton
                        id="followUp.deleteVisit"
                        icon="trash"
                        intent="danger"
                        variant="minimal"
                        size="small"
                        iconOnly
                        args={{ id: projectId, visitId: v.id, name: v.name }}
                      />
                    )}
                  </td>
                )}
              </tr>
            ))}
          </tbody>
        </HTMLTable>
      )}
    </div>
  )
}

/** Answers `visitDialog` (commands/followUp.ts) for this project. */
function VisitDialogHost({ projectId, plan }: { projectId: number; plan: VisitPlan }) {
  const request = useDialog(visitDialog)
  if (!request || request.args.projectId !== projectId) return null
  const editing = plan.visits.find((v) => v.id === request.args.visitId)
  const initial: VisitInput = editing
    ? {
        name: editing.name,
        dayOffset: editing.dayOffset,
        windowBefore: editing.windowBefore,
        windowAfter: editing.windowAfter,
        templateIds: editing.forms.map((f) => f.templateId),
      }
    : { name: '', dayOffset: 0, windowBefore: 0, windowAfter: 0, templateIds: [] }
  return (
    <VisitDialog
      key={request.seq}
      projectId={projectId}
      visitId={editing?.id}
      initial={initial}
      forms={plan.followUpForms}
      onClose={() => closeDialog(visitDialog)}
    />
  )
}

type NumberKey = 'dayOffset' | 'windowBefore' | 'windowAfter'
const numberLimits: Record<NumberKey, number> = {
  dayOffset: followUpLimits.dayOffset,
  windowBefore: followUpLimits.window,
  windowAfter: followUpLimits.window,
}
/** The dialog's values, each number as typed: Blueprint reads an emptied field as 0, which would save 0 unasked. */
type VisitDraft = Omit<VisitInput, NumberKey> & Record<NumberKey, string>

/** The first broken rule of the form, in the user's language; null when it may be sent. */
function problem(v: VisitDraft, t: ReturnType<typeof useT>): string | null {
  if (v.name.trim() === '') return t('followUp.dialog.nameRequired')
  for (const [key, max] of Object.entries(numberLimits) as [NumberKey, number][]) {
    const label = t(`followUp.schedule.${key}`)
    if (v[key].trim() === '') return t('validatorMsg.pleaseInput', [label])
    const n = Number(v[key])
    if (!Number.isInteger(n) || n < 0 || n > max) return t('followUp.dialog.range', [label, 0, max])
  }
  if (v.templateIds.length === 0) return t('followUp.dialog.formsRequired')
  return null
}

function VisitDialog({
  projectId,
  visitId,
  initial,
  forms,
  onClose,
}: {
  projectId: number
  visitId: number | undefined
  initial: VisitInput
  forms: VisitPlan['followUpForms']
  onClose: () => void
}) {
  const t = useT()
  const host = useCommandHost()
  const [form, setValues] = useState<VisitDraft>(() => ({
    ...initial,
    dayOffset: String(initial.dayOffset),
    windowBefore: String(initial.windowBefore),
    windowAfter: String(initial.windowAfter),
  }))
  const [tried, setTried] = useState(false)
  const [refusal, setRefusal] = useState<string | null>(null)
  const [saving, setSaving] = useState(false)
  // The form's own problem is read from what it holds now, so fixing it takes its message away; a
  // refusal of the server stands until the form changes.
  const error = (tried ? problem(form, t) : null) ?? refusal
  const setForm = (next: VisitDraft) => {
    setValues(next)
    setRefusal(null)
  }

  const save = async () => {
    setTried(true)
    if (problem(form, t)) return
    const parsed = visitInput.safeParse({
      ...form,
      dayOffset: Number(form.dayOffset),
      windowBefore: Number(form.windowBefore),
      windowAfter: Number(form.windowAfter),
    })
    if (!parsed.success) return setRefusal(t('message.saveFailed'))
    setSaving(true)
    const r =
      visitId === undefined
        ? await host.run('followUp.newVisit', 'button', { id: projectId, visit: parsed.data })
        : await host.run('followUp.editVisit', 'button', { id: projectId, visitId, visit: parsed.data })
    setSaving(false)
    if (r.ok) onClose()
    else setRefusal(r.error instanceof Error ? r.error.message : t('message.saveFailed'))
  }

  // No id on the input: Blueprint gives it one of its own.
  const number = (key: NumberKey) => (
    <FormGroup label={t(`followUp.schedule.${key}`)} labelInfo="*">
      <NumberTextInput
        fill
        aria-label={t(`followUp.schedule.${key}`)}
        min={0}
        max={numberLimits[key]}
        value={form[key]}
        data-testid={`visit-${key}`}
        onValueChange={(text) => setForm({ ...form, [key]: text })}
      />
    </FormGroup>
  )
  const toggle = (templateId: number, on: boolean) =>
    setForm({ ...form, templateIds: on ? [...form.templateIds, templateId] : form.templateIds.filter((x) => x !== templateId) })

  return (
    <Dialog
      isOpen
      onClose={onClose}
      title={t(visitId === undefined ? 'followUp.dialog.newTitle' : 'followUp.dialog.editTitle')}
      style={{ width: 540 }}
    >
      <form
        data-testid="visit-dialog"
        onSubmit={(e) => {
          e.preventDefault()
          void save()
        }}
      >
        <DialogBody>
          {error && (
            <Callout intent="danger" className="form-error" data-testid="visit-error" role="alert">
              {error}
            </Callout>
          )}
          <p className="bp6-text-muted">{t('followUp.dialog.hint')}</p>
          <FormGroup label={t('followUp.schedule.name')} labelFor="visit-name" labelInfo="*">
            <InputGroup
              id="visit-name"
              autoFocus
              value={form.name}
              maxLength={followUpLimits.name}
              data-testid="visit-name"
              onValueChange={(name) => setForm({ ...form, name })}
            />
          </FormGroup>
          <div className="followup-numbers">
            {number('dayOffset')}
            {number('windowBefore')}
            {number('windowAfter')}
          </div>
          <FormGroup label={t('followUp.schedule.forms')} labelInfo="*">
            {forms.map((f) => (
              <Checkbox
                key={f.templateId}
                label={f.name}
                checked={form.templateIds.includes(f.templateId)}
                data-testid={`visit-form-${f.templateId}`}
                onChange={(e) => toggle(f.templateId, e.currentTarget.checked)}
              />
            ))}
          </FormGroup>
        </DialogBody>
        <DialogFooter
          actions={
            <>
              <Button text={t('common.cancel')} onClick={onClose} />
              <BusyButton type="submit" intent="primary" text={t('common.save')} loading={saving} data-testid="visit-save" />
            </>
          }
        />
      </form>
    </Dialog>
  )
}

/** Answers `scheduleDialog` (commands/followUp.ts): a subject's planned visits, their windows, states and forms. */
function ScheduleDialogHost({ projectId }: { projectId: number }) {
  const request = useDialog(scheduleDialog)
  if (!request || request.args.projectId !== projectId) return null
  return <ScheduleDialog key={request.seq} {...request.args} onClose={() => closeDialog(scheduleDialog)} />
}

function ScheduleDialog({
  projectId,
  subjectId,
  subjectNo,
  onClose,
}: {
  projectId: number
  subjectId: number
  subjectNo: string
  onClose: () => void
}) {
  const t = useT()
  const lang = useLang()
  const schedule = useApi(['followUp', 'schedule', projectId, subjectId], (signal) => getSubjectSchedule(projectId, subjectId, { signal }))
  const s = schedule.data
  return (
    <Dialog isOpen onClose={onClose} title={t('followUp.scheduleTitle', [subjectNo])} style={{ width: 720 }}>
      <DialogBody>
        <div data-testid="schedule-dialog">
          {!s ? (
            schedule.loading ? (
              <Spinner size={20} />
            ) : (
              <NonIdealState icon="error" title={t('message.loadError')} />
            )
          ) : s.enrolledDay === null ? (
            <p>{t('followUp.notEnrolled')}</p>
          ) : (
            <>
              <p className="bp6-text-muted">
                {t('followUp.enrolledAt', [s.enrolledDay])} · {t('followUp.today', [s.today])}
              </p>
              {s.visits.length === 0 ? (
                <p>{t('followUp.scheduleEmpty')}</p>
              ) : (
                <HTMLTable compact striped className="followup-table" data-testid="schedule-visits">
                  <thead>
                    <tr>
                      <th>{t('followUp.column.visit')}</th>
                      <th>{t('followUp.column.plannedDate')}</th>
                      <th>{t('followUp.column.window')}</th>
                      <th>{t('followUp.state')}</th>
                      <th>{t('followUp.schedule.forms')}</th>
                    </tr>
                  </thead>
                  <tbody>
                    {s.visits.map((v) => (
                      <tr key={v.visitId} data-state={v.state}>
                        <td>{v.name}</td>
                        <td className="followup-dates">{v.plannedDate}</td>
                        <td className="followup-dates">{t('followUp.window', [v.windowStart, v.windowEnd])}</td>
                        <td>
                          <VisitStateTag state={v.state} />
                        </td>
                        <td>
                          {joinList(
                            v.forms.map((f) => t('followUp.formWithStatus', [f.name, t(`followUp.formStatus.${f.status ?? 'empty'}`)])),
                            lang,
                          )}
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </HTMLTable>
              )}
            </>
          )}
        </div>
      </DialogBody>
      <DialogFooter actions={<Button text={t('common.close')} onClick={onClose} autoFocus />} />
    </Dialog>
  )
}
