import { HTMLSelect } from '../../ui/HTMLSelect.tsx'
import type { ProjectRole } from '../../../contract/projects.ts'
import { useT } from '../../i18n/useT.ts'
import { roleLabel } from './labels.ts'

/** A pick of one of the project's roles, named in the reader's language; `prompt` shows while none is picked. */
export function RoleSelect(props: {
  id: string
  roles: readonly ProjectRole[]
  value: number | null
  onChange(roleId: number | null): void
  prompt?: string
  autoFocus?: boolean
}) {
  const t = useT()
  return (
    <HTMLSelect
      id={props.id}
      autoFocus={props.autoFocus}
      value={props.value ?? ''}
      onChange={(e) => props.onChange(e.currentTarget.value === '' ? null : Number(e.currentTarget.value))}
      data-testid={props.id}
    >
      {props.value === null && props.prompt !== undefined && <option value="">{props.prompt}</option>}
      {props.roles.map((r) => (
        <option key={r.id} value={r.id}>
          {roleLabel(r, t)}
        </option>
      ))}
    </HTMLSelect>
  )
}
