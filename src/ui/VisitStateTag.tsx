import { Tag } from '@blueprintjs/core'
import type { VisitState } from '../../contract/followUp.ts'
import { useT } from '../i18n/useT.ts'

const intentOf: Record<VisitState, 'success' | 'primary' | 'danger' | 'none'> = {
  done: 'success',
  due: 'primary',
  overdue: 'danger',
  upcoming: 'none',
}

/** A visit's state in words, coloured by how pressing it is: the follow-up plan and the subject detail alike. */
export function VisitStateTag({ state, testId }: { state: VisitState; testId?: string }) {
  const t = useT()
  return (
    <Tag minimal intent={intentOf[state]} data-testid={testId}>
      {t(`followUp.states.${state}`)}
    </Tag>
  )
}
