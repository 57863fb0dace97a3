/**
 * Enrolment (issue 10): the queue and center the member may enrol into, the queue's checklist
 * (each inclusion line confirmed, each exclusion line answered), an optional subject number, and
 * the stratification factors when the project's randomization plan has a list and the member
 * may read it. Saving runs the "new research object" command, which enrols and opens the subject.
 */
import { useState, type FormEvent } from 'react'
import { Button, Callout, Checkbox, DialogBody, DialogFooter, FormGroup, InputGroup } from '@blueprintjs/core'
import { HTMLSelect } from '../../ui/HTMLSelect.tsx'
import { Dialog } from '../../ui/Dialog.tsx'
import { enrolDialog } from '../../../commands/subjects.ts'
import { bilingual } from '../../../contract/bilingual.ts'
import { choiceLabel } from '../../../contract/indicatorRules.ts'
import { getRandomization, type PlanFactor } from '../../../contract/randomization.ts'
import { getStudyCenters, getStudyGroups } from '../../../contract/studyObject.ts'
import { conditionLines, subjectLimits, type EnrolInput } from '../../../contract/subjects.ts'
import { call } from '../../api/call.ts'
import { useApi } from '../../api/query.ts'
import { useLang, useT } from '../../i18n/useT.ts'
import { closeDialog, useDialog } from '../../state/dialogs.ts'
import { BusyButton } from '../../ui/BusyButton.tsx'
import { useCommandHost } from '../../ui/commandHost.tsx'

/** Mounted once by the app: shows the dialog whenever the command opens it. */
export function EnrolDialogHost() {
  const request = useDialog(enrolDialog)
  if (!request) return null
  return <EnrolDialog key={request.seq} studyId={request.args.studyId} onClose={() => closeDialog(enrolDialog)} />
}

/** The factors to answer: only a randomized plan with a list has them (every member reads them); a refusal reads none. */
async function stratification(studyId: number, signal: AbortSignal): Promise<readonly PlanFactor[]> {
  try {
    const plan = await call(getRandomization, { id: studyId }, { signal, toast: false })
    const ready = plan.access === 'full' ? plan.generatedAt !== null : plan.listReady
    return plan.method !== 'none' && ready ? plan.factors : []
  } catch {
    return []
  }
}

export function EnrolDialog({ studyId, onClose }: { studyId: number; onClose(): void }) {
  const t = useT()
  const lang = useLang()
  const host = useCommandHost()
  const queues = useApi(['subjects', 'enrolQueues', studyId], (signal) => call(getStudyGroups, { studyId }, { signal }))
  const centers = useApi(['subjects', 'enrolCenters', studyId], (signal) => call(getStudyCenters, { studyId }, { signal }))
  const factors = useApi(['subjects', 'enrolFactors', studyId], (signal) => stratification(studyId, signal))

  const [queueChoice, setQueueId] = useState<number | null>(null)
  const [centerChoice, setCenterId] = useState<number | null>(null)
  const [subjectNo, setSubjectNo] = useState('')
  const [inclusion, setInclusion] = useState<Record<number, boolean>>({})
  const [exclusion, setExclusion] = useState<Record<number, boolean>>({})
  const [answers, setAnswers] = useState<Record<number, string>>({})
  const [shown, setShown] = useState(false)
  const [busy, setBusy] = useState(false)

  // One choice only: it is taken without asking.
  const queueId = queueChoice ?? (queues.data?.length === 1 ? queues.data[0]!.id : null)
  const centerId = centerChoice ?? (centers.data?.length === 1 ? centers.data[0]!.id : null)
  const queue = queues.data?.find((q) => q.id === queueId) ?? null
  const inclusionLines = queue ? conditionLines(queue.entryCondition) : []
  const exclusionLines = queue ? conditionLines(queue.excludeCondition) : []
  const factorList = factors.data ?? []

  const errors = {
    queue: queueId === null ? t('offline.enrol.pickQueue') : null,
    center: centerId === null ? t('offline.enrol.pickCenter') : null,
    subjectNo: subjectNo.trim().length > subjectLimits.subjectNo ? t('offline.enrol.subjectNoTooLong', [subjectLimits.subjectNo]) : null,
  }
  const factorError = (f: PlanFactor) =>
    answers[f.indicatorId] ? null : t('offline.enrol.pickFactor', [bilingual(f.nameZh, f.nameEn, lang)])
  const invalid = Object.values(errors).some((e) => e !== null) || factorList.some((f) => factorError(f) !== null)

  const submit = async (e?: FormEvent) => {
    e?.preventDefault()
    if (busy) return
    setShown(true)
    if (invalid || queueId === null || centerId === null) {
      // The keyboard goes to the first control that needs an answer, not left on the button.
      const first = [
        errors.queue && 'enrol-queue',
        errors.center && 'enrol-center',
        ...factorList.map((f) => factorError(f) && `enrol-factor-${f.indicatorId}`),
        errors.subjectNo && 'enrol-number',
      ].find(Boolean)
      if (first) document.getElementById(first)?.focus()
      return
    }
    const subject: EnrolInput = {
      queueId,
      centerId,
      subjectNo: subjectNo.trim() === '' ? undefined : subjectNo.trim(),
      checklist: {
        inclusion: inclusionLines.map((_, i) => inclusion[i] === true),
        exclusion: exclusionLines.map((_, i) => exclusion[i] === true),
      },
      factors:
        factorList.length > 0 ? factorList.map((f) => ({ indicatorId: f.indicatorId, code: answers[f.indicatorId] ?? '' })) : undefined,
    }
    setBusy(true)
    const res = await host.run('subjects.new', 'button', { studyId, subject })
    setBusy(false)
    if (res.ok) onClose()
  }

  const problem = (error: string | null) =>
    shown && error ? { intent: 'danger' as const, helperText: error } : { intent: 'none' as const }
  const loaded = queues.data !== undefined && centers.data !== undefined

  return (
    <Dialog isOpen title={t('offline.enrol.title')} onClose={onClose}>
      <form onSubmit={(e) => void submit(e)} data-testid="enrol-dialog" noValidate>
        <DialogBody>
          {queues.data?.length === 0 && <Callout intent="warning">{t('offline.enrol.noQueues')}</Callout>}
          {centers.data?.length === 0 && <Callout intent="warning">{t('offline.enrol.noCenters')}</Callout>}
          <FormGroup label={t('offline.enrol.queue')} labelFor="enrol-queue" labelInfo="*" {...problem(errors.queue)}>
            <HTMLSelect
              id="enrol-queue"
              autoFocus
              fill
              value={queueId ?? ''}
              data-testid="enrol-queue"
              onChange={(e) => {
                setQueueId(e.currentTarget.value === '' ? null : Number(e.currentTarget.value))
                setInclusion({})
                setExclusion({})
              }}
            >
              <option value="">{t('offline.enrol.pickQueue')}</option>
              {(queues.data ?? []).map((q) => (
                <option key={q.id} value={q.id}>
                  {q.name}
                </option>
              ))}
            </HTMLSelect>
          </FormGroup>
          <FormGroup label={t('offline.enrol.center')} labelFor="enrol-center" labelInfo="*" {...problem(errors.center)}>
            <HTMLSelect
              id="enrol-center"
              fill
              value={centerId ?? ''}
              data-testid="enrol-center"
              onChange={(e) => setCenterId(e.currentTarget.value === '' ? null : Number(e.currentTarget.value))}
            >
              <option value="">{t('offline.enrol.pickCenter')}</option>
              {(centers.data ?? []).map((c) => (
                <option key={c.id} value={c.id}>
                  {`${c.code} ${bilingual(c.nameZh, c.nameEn, lang)}`}
                </option>
              ))}
            </HTMLSelect>
          </FormGroup>
          {queue && inclusionLines.length + exclusionLines.length === 0 && <p>{t('offline.enrol.noConditions')}</p>}
          {inclusionLines.length > 0 && (
            <fieldset data-testid="enrol-inclusion">
              <legend>{t('offline.enrol.inclusion')}</legend>
              {inclusionLines.map((line, i) => (
                <Checkbox
                  key={i}
                  label={line}
                  checked={inclusion[i] === true}
                  onChange={(e) => setInclusion({ ...inclusion, [i]: e.currentTarget.checked })}
                />
              ))}
            </fieldset>
          )}
          {exclusionLines.length > 0 && (
            <fieldset data-testid="enrol-exclusion">
              <legend>{t('offline.enrol.exclusion')}</legend>
              {exclusionLines.map((line, i) => (
                <Checkbox
                  key={i}
                  label={line}
                  checked={exclusion[i] === true}
                  onChange={(e) => setExclusion({ ...exclusion, [i]: e.currentTarget.checked })}
                />
              ))}
            </fieldset>
          )}
          {factorList.length > 0 && (
            <fieldset data-testid="enrol-factors">
              <legend>{t('offline.enrol.factors')}</legend>
              {factorList.map((f) => {
                const name = bilingual(f.nameZh, f.nameEn, lang)
                return (
                  <FormGroup
                    key={f.indicatorId}
                    label={name}
                    labelFor={`enrol-factor-${f.indicatorId}`}
                    labelInfo="*"
                    {...problem(factorError(f))}
                  >
                    <HTMLSelect
                      id={`enrol-factor-${f.indicatorId}`}
                      fill
                      value={answers[f.indicatorId] ?? ''}
                      onChange={(e) => setAnswers({ ...answers, [f.indicatorId]: e.currentTarget.value })}
                    >
                      <option value="">{t('offline.enrol.pickFactor', [name])}</option>
                      {f.choices.map((c) => (
                        <option key={c.code} value={c.code}>
                          {choiceLabel(c, lang)}
                        </option>
                      ))}
                    </HTMLSelect>
                  </FormGroup>
                )
              })}
            </fieldset>
          )}
          <FormGroup
            label={t('offline.enrol.subjectNo')}
            labelFor="enrol-number"
            {...(shown && errors.subjectNo ? problem(errors.subjectNo) : { helperText: t('offline.enrol.subjectNoHint') })}
          >
            <InputGroup
              id="enrol-number"
              value={subjectNo}
              data-testid="enrol-number"
              onChange={(e) => setSubjectNo(e.currentTarget.value)}
            />
          </FormGroup>
        </DialogBody>
        <DialogFooter
          actions={
            <>
              <Button text={t('common.cancel')} onClick={onClose} />
              {/* A refusal leaves the dialog open: the keyboard is back on this button. */}
              <BusyButton
                type="submit"
                intent="primary"
                loading={busy || !loaded}
                disabled={queues.data?.length === 0 || centers.data?.length === 0}
                text={t('offline.enrol.submit')}
                data-testid="enrol-submit"
              />
            </>
          }
        />
      </form>
    </Dialog>
  )
}
