import { Button, Callout, H4, NonIdealState, Spinner } from '@blueprintjs/core'
import { useEffect, useRef, useState } from 'react'
import { useSnapshot } from 'valtio'
import { projectWizard, type WizardActions } from '../../../commands/projectSetup.ts'
import { paramsOf, screenPath } from '../../../contract/screenPaths.ts'
import { invalidate } from '../../api/query.ts'
import { useT } from '../../i18n/useT.ts'
import { provide, usePublish } from '../../state/focus.ts'
import { emptyQueue, projectDraft, wizardSteps, type BaseForm, type QueueDomain } from '../../state/projectDraft.ts'
import { session } from '../../state/session.ts'
import { CommandButton } from '../../ui/CommandButton.tsx'
import { useCommandHost } from '../../ui/commandHost.tsx'
import { toast } from '../../ui/toaster.ts'
import { createProject } from './api/createProject.ts'
import { BaseFields } from './BaseFields.tsx'
import { CenterPicker } from './CenterPicker.tsx'
import { FormsPicker } from './FormsPicker.tsx'
import { QueueFields, RemoveQueueButton } from './QueueFields.tsx'
import { centerProblem, validateBase, validateQueues } from './setupForms.ts'
import './projectSetup.css'

const draft = projectDraft.state

/**
 * The create wizard (multi-add, SPEC "basic info, queue info, index info, center info"). What is
 * entered is the user's draft (src/state/projectDraft.ts): kept in this browser per user, so a
 * reload continues where it was; saving is one call that creates the project with its queues,
 * pinned forms and centers, then clears the draft and opens the project.
 */
export default function ProjectWizardPage({ path }: { path: string }) {
  const t = useT()
  const host = useCommandHost()
  const { userId } = useSnapshot(session)
  const scope = paramsOf('multiAdd', path)?.scope ?? 'multi'
  const d = useSnapshot(draft)
  const [ready, setReady] = useState(false)
  const [restored, setRestored] = useState(false)
  /** Steps whose messages show (after the user tried to leave them). */
  const [checked, setChecked] = useState<ReadonlySet<number>>(new Set())
  const [saving, setSaving] = useState(false)
  const stepRef = useRef<HTMLDivElement>(null)
  /** Whether the next focus goes to the newest queue rather than the step's first field. */
  const focusNewQueue = useRef(false)
  const [focusTick, setFocusTick] = useState(0)

  useEffect(() => {
    if (userId === null) return
    setRestored(projectDraft.restore(userId, scope) && !projectDraft.isEmpty())
    setReady(true)
    // A keyboard user starts (or continues) in the step's first field.
    focusStep()
    return projectDraft.autoPersist(userId)
  }, [userId, scope])

  // After a step change (or a queue added), the first field of the step, or the new queue, takes the focus.
  useEffect(() => {
    if (focusTick === 0) return
    const target = focusNewQueue.current
      ? stepRef.current?.querySelectorAll<HTMLElement>('[data-testid="queue-name"]').item(draft.queueForm.domains.length - 1)
      : (stepRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]') ??
        stepRef.current?.querySelector<HTMLElement>('select, input, textarea'))
    target?.focus()
  }, [focusTick])
  const focusStep = (queue = false) => {
    focusNewQueue.current = queue
    setFocusTick((n) => n + 1)
  }

  const base = validateBase(d.baseForm as BaseForm)
  const queues = validateQueues(d.queueForm.domains)
  const centers = centerProblem(d.scope, d.centers.length)
  const stepValid = [base.input !== null, queues.input !== null, true, centers === null]

  const go = (index: number) => {
    draft.activeIndex = Math.max(0, Math.min(wizardSteps.length - 1, index))
    focusStep()
  }

  const save = async () => {
    if (userId === null || saving) return
    const firstBad = stepValid.findIndex((ok) => !ok)
    if (firstBad >= 0 || !base.input || !queues.input) {
      setChecked(new Set([0, 1, 2, 3]))
      const step = firstBad >= 0 ? firstBad : 0
      toast(t('projectSetup.msg.stepInvalid', [t(`projectSetup.step.${wizardSteps[step]}`)]), 'danger')
      go(step)
      return
    }
    setSaving(true)
    try {
      const created = await createProject({
        scope: draft.scope,
        base: base.input,
        queues: queues.input,
        forms: draft.forms.map((f) => ({ templateId: f.templateId, versionId: f.versionId })),
        centerIds: draft.centers.map((c) => c.id),
      })
      projectDraft.clear(userId)
      setChecked(new Set())
      invalidate('projects')
      toast(t('projectSetup.created', [created.name]), 'success')
      // The wizard's tab closes and the project opens in its place (closed first: the URL is the last word).
      const ctx = host.context()
      ctx.panes.close(path)
      ctx.navigate(screenPath('multiDetail', { id: created.id }))
    } catch {
      // The client showed the server's message (a number taken, a center gone); the draft stays.
    } finally {
      setSaving(false)
    }
  }

  const next = async () => {
    const i = draft.activeIndex
    if (i === wizardSteps.length - 1) return save()
    if (!stepValid[i]) {
      setChecked((s) => new Set([...s, i]))
      toast(t('projectSetup.msg.fixFirst'), 'danger')
      focusStep()
      return
    }
    go(i + 1)
  }

  const addQueue = () => {
    if (draft.activeIndex !== 1) draft.activeIndex = 1
    draft.queueForm.domains.push(emptyQueue())
    focusStep(true)
  }

  const actions = useRef<WizardActions | null>(null)
  actions.current = ready
    ? {
        step: d.activeIndex,
        steps: wizardSteps.length,
        next,
        previous: () => go(draft.activeIndex - 1),
        addQueue,
        clear: () => {
          if (userId === null) return
          projectDraft.clear(userId)
          setChecked(new Set())
          setRestored(false)
          focusStep()
        },
      }
    : null
  usePublish(path, undefined, [provide(projectWizard, () => actions.current ?? undefined)])

  if (userId === null) return <NonIdealState icon="lock" />
  if (!ready) return <Spinner className="view-spinner" />

  const step = wizardSteps[d.activeIndex] ?? 'base'
  const show = checked.has(d.activeIndex)
  const stepTitle = t(`projectSetup.step.${step}`)
  return (
    <div className="project-wizard" data-testid="project-wizard" data-step={step}>
      <div className="project-wizard-head">
        <H4>
          {t('projectSetup.wizardTitle')} · {t(`projectSetup.scope.${d.scope}`)}
        </H4>
        <CommandButton id="projectSetup.clearDraft" icon="eraser" minimal />
      </div>
      <ol className="project-steps" aria-label={t('projectSetup.steps')}>
        {wizardSteps.map((s, i) => (
          <li key={s} className={i === d.activeIndex ? 'active' : stepValid[i] ? 'done' : ''}>
            <Button
              minimal
              aria-current={i === d.activeIndex ? 'step' : undefined}
              text={`${i + 1}. ${t(`projectSetup.step.${s}`)}`}
              // Going back is free; going forward passes each step's checks.
              onClick={() => (i <= d.activeIndex || stepValid.slice(0, i).every(Boolean) ? go(i) : void next())}
              data-testid={`wizard-step-${s}`}
            />
          </li>
        ))}
      </ol>
      {restored && (
        <Callout intent="primary" icon="history" className="project-restored" data-testid="draft-restored">
          {t('projectSetup.draft.restored')}
        </Callout>
      )}
      <div className="project-step" ref={stepRef} data-wizard-step={step} role="group" aria-label={stepTitle}>
        <p className="project-muted" data-testid="wizard-step-title">
          {t('projectSetup.stepOf', [d.activeIndex + 1, wizardSteps.length, stepTitle])}
        </p>
        {step === 'base' && (
          <BaseFields
            idPrefix="wizard"
            form={d.baseForm as BaseForm}
            onChange={(patch) => Object.assign(draft.baseForm, patch)}
            errors={show ? base.errors : {}}
          />
        )}
        {step === 'queue' && (
          <div className="project-queues">
            {d.queueForm.domains.map((q, i) => (
              <QueueFields
                key={i}
                index={i}
                idPrefix="wizard-queue"
                value={q as QueueDomain}
                onChange={(patch) => Object.assign(draft.queueForm.domains[i] ?? {}, patch)}
                errors={show ? (queues.errors[i] ?? {}) : {}}
                actions={
                  d.queueForm.domains.length > 1 && (
                    <RemoveQueueButton index={i} name={q.name} onRemove={() => draft.queueForm.domains.splice(i, 1)} />
                  )
                }
              />
            ))}
            <CommandButton id="projectSetup.addQueue" icon="add" />
          </div>
        )}
        {step === 'index' && <FormsPicker chosen={d.forms} onChange={(next) => (draft.forms = next)} />}
        {step === 'center' && (
          <CenterPicker
            scope={d.scope}
            chosen={d.centers}
            onChange={(next) => (draft.centers = next)}
            path={path}
            error={show ? centers : null}
          />
        )}
      </div>
      <div className="project-wizard-foot">
        <CommandButton id="projectSetup.wizardPrevious" icon="arrow-left" label={t('projectSetup.action.previous')} />
        <span className="project-muted">{t('projectSetup.draft.kept')}</span>
        <CommandButton
          id="projectSetup.wizardNext"
          intent="primary"
          rightIcon={step === 'center' ? 'tick' : 'arrow-right'}
          loading={saving}
          label={t(step === 'center' ? 'projectSetup.action.create' : 'projectSetup.action.next')}
        />
      </div>
    </div>
  )
}
