import { Button, Card, FormGroup, H5, InputGroup, Tag, TextArea } from '@blueprintjs/core'
import type { ReactNode } from 'react'
import { projectLimits } from '../../../contract/projects.ts'
import { useT } from '../../i18n/useT.ts'
import type { QueueDomain } from '../../state/projectDraft.ts'
import { messageText, queueLabel, type QueueErrors, type QueueField } from './setupForms.ts'

/**
 * One queue: name, key, inclusion conditions, exclusion criteria (SPEC §3 Queue). The wizard's
 * queue step and the edit page's queue tab show one card per queue; `actions` holds the card's
 * remove / delete button.
 */
export function QueueFields({
  index,
  value,
  onChange,
  errors,
  idPrefix,
  subjectCount,
  actions,
}: {
  index: number
  value: QueueDomain
  onChange(patch: Partial<QueueDomain>): void
  errors: QueueErrors
  idPrefix: string
  subjectCount?: number
  actions?: ReactNode
}) {
  const t = useT()
  const id = (f: QueueField) => `${idPrefix}-${index}-${f}`
  const group = (f: QueueField, control: ReactNode, required: boolean, hint?: string) => {
    const error = errors[f]
    return (
      <FormGroup
        label={t(queueLabel(f))}
        labelFor={id(f)}
        labelInfo={required ? '*' : undefined}
        intent={error ? 'danger' : 'none'}
        helperText={error ? <span id={`${id(f)}-error`}>{messageText(t, error)}</span> : hint}
      >
        {control}
      </FormGroup>
    )
  }
  const aria = (f: QueueField) => ({
    id: id(f),
    'data-testid': `queue-${f}`,
    'aria-invalid': errors[f] ? true : undefined,
    'aria-describedby': errors[f] ? `${id(f)}-error` : undefined,
  })
  const title = t('projectSetup.queue.title', [index + 1])
  return (
    <Card className="project-queue" data-testid="queue-card" role="group" aria-label={title}>
      <div className="project-queue-head">
        <H5>{value.name.trim() !== '' ? `${title} · ${value.name}` : title}</H5>
        {subjectCount !== undefined && (
          <Tag minimal data-testid="queue-subjects">
            {t('projectSetup.queue.subjects', [subjectCount])}
          </Tag>
        )}
        {actions}
      </div>
      <div className="project-queue-row">
        {group(
          'name',
          <InputGroup
            {...aria('name')}
            maxLength={projectLimits.queueName}
            value={value.name}
            intent={errors.name ? 'danger' : 'none'}
            onChange={(e) => onChange({ name: e.currentTarget.value })}
          />,
          true,
        )}
        {group(
          'key',
          <InputGroup
            {...aria('key')}
            maxLength={projectLimits.queueKey}
            value={value.key}
            intent={errors.key ? 'danger' : 'none'}
            onChange={(e) => onChange({ key: e.currentTarget.value })}
          />,
          true,
          t('projectSetup.queue.keyHint'),
        )}
      </div>
      {group(
        'entryCondition',
        <TextArea
          {...aria('entryCondition')}
          fill
          maxLength={projectLimits.condition}
          value={value.entryCondition}
          onChange={(e) => onChange({ entryCondition: e.currentTarget.value })}
        />,
        false,
      )}
      {group(
        'excludeCondition',
        <TextArea
          {...aria('excludeCondition')}
          fill
          maxLength={projectLimits.condition}
          value={value.excludeCondition}
          onChange={(e) => onChange({ excludeCondition: e.currentTarget.value })}
        />,
        false,
      )}
    </Card>
  )
}

/** The remove button of a queue not saved yet (the first one stays: a project has a queue). */
export function RemoveQueueButton({ index, name, onRemove }: { index: number; name: string; onRemove(): void }) {
  const t = useT()
  const label = t('projectSetup.queue.remove', [name.trim() !== '' ? name : index + 1])
  return <Button minimal icon="trash" aria-label={label} title={label} onClick={onRemove} data-testid="queue-remove" />
}
