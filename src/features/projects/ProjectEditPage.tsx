import { Callout, H4, NonIdealState, Spinner, Tab, Tabs } from '@blueprintjs/core'
import { useEffect, useRef, useState, type MutableRefObject } from 'react'
import { projectEditor, type EditorActions } from '../../../commands/projectSetup.ts'
import { projectEditTabs, type ProjectDetail, type ProjectEditTab, type ProjectForm } from '../../../contract/projects.ts'
import { paramsOf, screenPath } from '../../../contract/screenPaths.ts'
import { invalidate } from '../../api/query.ts'
import { useT } from '../../i18n/useT.ts'
import type { BaseForm, DraftCenter, DraftForm, QueueDomain } from '../../state/projectDraft.ts'
import { emptyQueue } from '../../state/projectDraft.ts'
import { provide, useArrivalFocus, usePublish } from '../../state/focus.ts'
import { CommandButton } from '../../ui/CommandButton.tsx'
import { useCommandHost } from '../../ui/commandHost.tsx'
import { toast } from '../../ui/toaster.ts'
import { addQueue } from './api/addQueue.ts'
import { setProjectCenters } from './api/setProjectCenters.ts'
import { setProjectForms } from './api/setProjectForms.ts'
import { updateProjectBase } from './api/updateProjectBase.ts'
import { updateQueue } from './api/updateQueue.ts'
import { BaseFields } from './BaseFields.tsx'
import { CenterPicker, draftCenterOf } from './CenterPicker.tsx'
import { editLimits } from './editLimits.ts'
import { FormsPicker } from './FormsPicker.tsx'
import MemberTab from './MemberTab.tsx'
import { QueueFields, RemoveQueueButton } from './QueueFields.tsx'
import RandomizationTab from './RandomizationTab.tsx'
import { baseFormOf, centerProblem, validateBase, validateQueues } from './setupForms.ts'
import { useProject } from './useProject.ts'
import './projectSetup.css'

/** What the current tab saves; null where the tab saves on its own (member, config). */
type Saver = MutableRefObject<(() => Promise<void>) | null>

/** Projects whose queue tab is to add a queue as soon as it shows (the add-queue command from another tab). */
const pendingQueueAdd = new Set<number>()

/** Tabs the page saves; member and config hold their own saves. */
const savingTabs: readonly ProjectEditTab[] = ['base', 'queue', 'index', 'center']

/**
 * The edit page (multi-edit ?id=&tab=): base, queue, index, center, member and config info, each
 * saved on its own with the server's rules (the save-tab command, Alt+Shift+Enter). The index tab
 * offers an explicit upgrade when a newer published version exists; deleting a queue with research
 * objects shows the server's refusal.
 */
export default function ProjectEditPage({ path }: { path: string }) {
  const t = useT()
  const params = paramsOf('multiEdit', path)
  const id = params?.id ?? 0
  const project = useProject(id)
  const host = useCommandHost()
  // The tab is the path's: a reload, a link or a command (the member tab's dialogs) lands on it.
  const tab: ProjectEditTab = params?.tab ?? 'base'
  const saver: Saver = useRef(null)
  const queueAdder = useRef<(() => void) | null>(null)
  const root = useRef<HTMLDivElement>(null)
  const p = project.data

  useArrivalFocus(path, root, p !== undefined, ['[role="tab"][aria-selected="true"]'])

  /** Another tab is another path: it replaces this one in the tab bar. */
  const showTab = (next: ProjectEditTab) => {
    if (next === tab) return
    const ctx = host.context()
    // Closed first: the URL (and so the new tab) is the last word.
    ctx.panes.close(path)
    ctx.navigate(screenPath('multiEdit', { id, tab: next }))
  }

  const actions = useRef<EditorActions | null>(null)
  const limits = editLimits(p?.me ?? null)
  actions.current = p
    ? {
        projectId: p.id,
        tab,
        canSave: savingTabs.includes(tab) && (tab !== 'center' || limits.changeCenters),
        mayAddQueue: limits.addQueue,
        saveTab: async () => {
          await saver.current?.()
        },
        addQueue: () => {
          if (tab === 'queue') return queueAdder.current?.()
          // The queue tab adds it when it shows.
          pendingQueueAdd.add(p.id)
          showTab('queue')
        },
      }
    : null
  usePublish(path, p ? { kind: 'project', id: p.id, name: p.name } : undefined, [
    provide(projectEditor, () => actions.current ?? undefined),
  ])

  if (params === null) return <NonIdealState icon="projects" title={t('projectSetup.notFound')} />
  if (!p) return project.error ? <NonIdealState icon="error" title={t('message.loadError')} /> : <Spinner className="view-spinner" />

  const panel = (which: ProjectEditTab) => {
    switch (which) {
      case 'base':
        return <BaseTab project={p} saver={saver} />
      case 'queue':
        return <QueueTab project={p} saver={saver} adder={queueAdder} />
      case 'index':
        return <IndexTab project={p} saver={saver} />
      case 'center':
        return <CenterTab project={p} saver={saver} path={path} />
      case 'member':
        return <MemberTab project={p} />
      case 'config':
        return <RandomizationTab project={p} />
    }
  }

  return (
    <div className="project-edit" ref={root} data-testid="project-edit">
      <H4>{t('projectSetup.editTitle', [p.name])}</H4>
      <Tabs
        id={`project-edit-${p.id}`}
        selectedTabId={tab}
        onChange={(next) => showTab(next as ProjectEditTab)}
        renderActiveTabPanelOnly
        aria-label={t('projectSetup.tabs')}
      >
        {projectEditTabs.map((which) => (
          <Tab
            key={which}
            id={which}
            title={t(`projectSetup.tab.${which}`)}
            // Blueprint moves between tabs with the arrow keys only over tabs marked enabled.
            disabled={false}
            panel={<div className="project-tab">{panel(which)}</div>}
            data-testid={`edit-tab-${which}`}
          />
        ))}
      </Tabs>
      {savingTabs.includes(tab) && (
        <div className="project-edit-foot">
          <CommandButton id="projectSetup.saveTab" intent="primary" icon="floppy-disk" label={t('common.save')} />
        </div>
      )}
    </div>
  )
}

/** Saves run through the save-tab command; the tab tells it what to do. */
function useSaver(saver: Saver, save: () => Promise<void>) {
  const latest = useRef(save)
  latest.current = save
  useEffect(() => {
    saver.current = () => latest.current()
    return () => {
      saver.current = null
    }
  }, [saver])
}

function BaseTab({ project, saver }: { project: ProjectDetail; saver: Saver }) {
  const t = useT()
  const [form, setForm] = useState<BaseForm>(() => baseFormOf(project))
  const [shown, setShown] = useState(false)
  const { input, errors } = validateBase(form)
  useSaver(saver, async () => {
    setShown(true)
    if (!input) {
      toast(t('projectSetup.msg.fixFirst'), 'danger')
      return
    }
    const saved = await updateProjectBase(project.id, input)
    setForm(baseFormOf(saved))
    setShown(false)
    invalidate('projects')
    toast(t('projectSetup.baseSaved'), 'success')
  })
  return (
    <BaseFields
      idPrefix={`edit-${project.id}`}
      form={form}
      onChange={(patch) => setForm((f) => ({ ...f, ...patch }))}
      errors={shown ? errors : {}}
    />
  )
}

interface QueueRow extends QueueDomain {
  id: number | null
  subjectCount: number
}

const rowsOf = (p: ProjectDetail): QueueRow[] =>
  p.queues.map((q) => ({
    id: q.id,
    name: q.name,
    key: q.key,
    entryCondition: q.entryCondition,
    excludeCondition: q.excludeCondition,
    subjectCount: q.subjectCount,
  }))

const sameQueue = (a: QueueDomain, b: QueueDomain) =>
  a.name === b.name && a.key === b.key && a.entryCondition === b.entryCondition && a.excludeCondition === b.excludeCondition

function QueueTab({ project, saver, adder }: { project: ProjectDetail; saver: Saver; adder: MutableRefObject<(() => void) | null> }) {
  const t = useT()
  const [rows, setRows] = useState<QueueRow[]>(() => rowsOf(project))
  const [shown, setShown] = useState(false)
  const list = useRef<HTMLDivElement>(null)
  const [focusNew, setFocusNew] = useState(0)
  const { input, errors } = validateQueues(rows)

  // A queue deleted (or saved) elsewhere: the saved ones follow the server, unsaved ones stay.
  useEffect(() => {
    setRows((current) => {
      const fresh = rowsOf(project)
      const edited = new Map(current.filter((r) => r.id !== null).map((r) => [r.id, r]))
      return [
        ...fresh.map((f) => {
          const mine = edited.get(f.id)
          return mine ? { ...mine, subjectCount: f.subjectCount } : f
        }),
        ...current.filter((r) => r.id === null),
      ]
    })
  }, [project])

  useEffect(() => {
    adder.current = () => {
      setRows((r) => [...r, { ...emptyQueue(), id: null, subjectCount: 0 }])
      setFocusNew((n) => n + 1)
    }
    if (pendingQueueAdd.delete(project.id)) adder.current()
    return () => {
      adder.current = null
    }
  }, [adder, project.id])
  useEffect(() => {
    if (focusNew === 0) return
    const names = list.current?.querySelectorAll<HTMLElement>('[data-testid="queue-name"]')
    names?.item(names.length - 1).focus()
  }, [focusNew])

  useSaver(saver, async () => {
    setShown(true)
    if (!input) {
      toast(t('projectSetup.msg.fixFirst'), 'danger')
      return
    }
    const saved = new Map(project.queues.map((q) => [q.id, q]))
    const next = [...rows]
    for (const [i, row] of rows.entries()) {
      const body = input[i]
      if (!body) continue
      if (row.id === null) {
        const created = await addQueue(project.id, body)
        next[i] = { ...body, id: created.id, subjectCount: created.subjectCount }
        setRows([...next])
        toast(t('projectSetup.queue.added', [created.name]), 'success')
      } else {
        const was = saved.get(row.id)
        if (was && sameQueue(was, body)) continue
        await updateQueue(project.id, row.id, body)
        toast(t('projectSetup.queue.saved', [body.name]), 'success')
      }
    }
    setShown(false)
    invalidate('projects')
  })

  return (
    <div className="project-queues" ref={list}>
      {rows.map((row, i) => (
        <QueueFields
          key={row.id ?? `new-${i}`}
          index={i}
          idPrefix={`edit-${project.id}-queue`}
          value={row}
          subjectCount={row.id === null ? undefined : row.subjectCount}
          onChange={(patch) => setRows((r) => r.map((x, j) => (j === i ? { ...x, ...patch } : x)))}
          errors={shown ? (errors[i] ?? {}) : {}}
          actions={
            row.id === null ? (
              <RemoveQueueButton index={i} name={row.name} onRemove={() => setRows((r) => r.filter((_, j) => j !== i))} />
            ) : (
              <CommandButton
                id="projectSetup.deleteQueue"
                minimal
                icon="trash"
                iconOnly
                args={{ id: project.id, queueId: row.id, name: row.name }}
              />
            )
          }
        />
      ))}
      <CommandButton id="projectSetup.addQueue" icon="add" />
    </div>
  )
}

const draftFormOf = (f: ProjectForm): DraftForm => ({
  templateId: f.templateId,
  kind: f.kind,
  name: f.name,
  versionId: f.versionId,
  version: f.version,
})

function IndexTab({ project, saver }: { project: ProjectDetail; saver: Saver }) {
  const t = useT()
  const [chosen, setChosen] = useState<DraftForm[]>(() => project.forms.map(draftFormOf))
  const pinned = new Map(project.forms.map((f) => [f.templateId, f]))
  // An upgrade elsewhere changes a pin's version: the saved pins follow the server.
  useEffect(() => {
    const fresh = new Map(project.forms.map((f) => [f.templateId, draftFormOf(f)]))
    setChosen((c) => c.map((f) => fresh.get(f.templateId) ?? f))
  }, [project])
  useSaver(saver, async () => {
    await setProjectForms(
      project.id,
      // A saved pin keeps its version: only an upgrade moves it.
      chosen.map((f) => ({ templateId: f.templateId, versionId: pinned.get(f.templateId)?.versionId ?? f.versionId })),
    )
    invalidate('projects')
    toast(t('projectSetup.index.saved'), 'success')
  })
  return <FormsPicker chosen={chosen} onChange={setChosen} pinned={pinned} projectId={project.id} />
}

function CenterTab({ project, saver, path }: { project: ProjectDetail; saver: Saver; path: string }) {
  const t = useT()
  const [chosen, setChosen] = useState<DraftCenter[]>(() => project.centers.map(draftCenterOf))
  const [shown, setShown] = useState(false)
  const problem = centerProblem(project.scope, chosen.length)
  useSaver(saver, async () => {
    setShown(true)
    if (problem) return
    await setProjectCenters(
      project.id,
      chosen.map((c) => c.id),
    )
    setShown(false)
    invalidate('projects')
    toast(t('projectSetup.center.saved'), 'success')
  })
  return (
    <>
      {!editLimits(project.me).changeCenters && <Callout intent="primary">{t('projectSetup.center.limited')}</Callout>}
      <CenterPicker scope={project.scope} chosen={chosen} onChange={setChosen} path={path} error={shown ? problem : null} />
    </>
  )
}
