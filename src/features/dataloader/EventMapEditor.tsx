import { Button, FormGroup, InputGroup } from '@blueprintjs/core'
import { HTMLSelect } from '../../ui/HTMLSelect.tsx'
import { useSnapshot } from 'valtio'
import { useApi } from '../../api/query.ts'
import { useT } from '../../i18n/useT.ts'
import { getVisitPlan } from './api/getVisitPlan.ts'
import { uploadPanel } from './uploadState.ts'

/**
 * REDCap records: which visit each event is, for events whose names are not the visits' own
 * (`month_3_arm_1` for a visit named "V1 · month 3"); an event left out is matched by its name.
 * Only a project with a visit schedule has anything to pair.
 */
export function EventMapEditor({ studyId }: { studyId: number }) {
  const t = useT()
  const panel = uploadPanel(studyId)
  const s = useSnapshot(panel)
  const plan = useApi(['dataLoad', 'visits', studyId], (signal) => getVisitPlan(studyId, { signal }))
  const visits = plan.data?.visits ?? []
  if (visits.length === 0) return null
  const focusEvent = (i: number) => requestAnimationFrame(() => document.getElementById(`upload-event-${studyId}-${i}`)?.focus())

  return (
    <FormGroup label={t('dataLoad.upload.events')} helperText={t('dataLoad.upload.eventsHint')}>
      <ol className="data-loading-events" data-testid="upload-events">
        {s.events.map((e, i) => (
          <li key={i}>
            <InputGroup
              id={`upload-event-${studyId}-${i}`}
              value={e.event}
              maxLength={200}
              placeholder={t('dataLoad.upload.eventPlaceholder')}
              aria-label={t('dataLoad.upload.eventName', [i + 1])}
              onValueChange={(v) => (panel.events[i]!.event = v)}
            />
            <HTMLSelect
              value={e.visit}
              aria-label={t('dataLoad.upload.eventVisit', [i + 1])}
              onChange={(ev) => (panel.events[i]!.visit = ev.currentTarget.value)}
              options={[{ value: '', label: '—' }, ...visits.map((v) => ({ value: String(v.id), label: v.name }))]}
            />
            <Button
              variant="minimal"
              icon="cross"
              aria-label={t('dataLoad.upload.removeEvent', [i + 1])}
              onClick={() => {
                panel.events.splice(i, 1)
                // The focus goes to the event now in its place, else to the one before, else to Add event.
                const next = Math.min(i, panel.events.length - 1)
                if (next >= 0) focusEvent(next)
                else requestAnimationFrame(() => document.getElementById(`upload-event-add-${studyId}`)?.focus())
              }}
            />
          </li>
        ))}
      </ol>
      <Button
        id={`upload-event-add-${studyId}`}
        icon="add"
        text={t('dataLoad.upload.addEvent')}
        data-testid="upload-event-add"
        onClick={() => {
          panel.events.push({ event: '', visit: '' })
          focusEvent(panel.events.length - 1)
        }}
      />
    </FormGroup>
  )
}
