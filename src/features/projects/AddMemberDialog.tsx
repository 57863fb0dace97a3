import { useEffect, useMemo, useState, type FormEvent, type KeyboardEvent } from 'react'
import { Button, DialogBody, DialogFooter, FormGroup, InputGroup, Menu, MenuItem, NonIdealState } from '@blueprintjs/core'
import { Dialog } from '../../ui/Dialog.tsx'
import type { Candidate, ProjectRole } from '../../../contract/projects.ts'
import { useT } from '../../i18n/useT.ts'
import { debounce } from '../../lib/debounce.ts'
import { useCommandHost } from '../../ui/commandHost.tsx'
import { listCandidates } from './api/listCandidates.ts'
import { RoleSelect } from './RoleSelect.tsx'
import { BusyButton } from '../../ui/BusyButton.tsx'

/**
 * The user picker: a search over the back office's active users who are not members yet (name or
 * username prefix, answered by the server), a list to pick one from by mouse or arrow keys, and
 * the role to give. Saving runs the add member command.
 */
export function AddMemberDialog({ projectId, roles, onClose }: { projectId: number; roles: readonly ProjectRole[]; onClose(): void }) {
  const t = useT()
  const host = useCommandHost()
  const [q, setQ] = useState('')
  const [candidates, setCandidates] = useState<Candidate[] | null>(null)
  const [picked, setPicked] = useState<Candidate | null>(null)
  const [active, setActive] = useState(0)
  const [roleId, setRoleId] = useState<number | null>(roles.find((r) => r.builtin === null)?.id ?? roles[0]?.id ?? null)
  const [shown, setShown] = useState(false)
  const [busy, setBusy] = useState(false)

  const search = useMemo(
    () =>
      debounce((text: string, signal: AbortSignal) => {
        listCandidates(projectId, text, { signal }).then(
          (rows) => {
            setCandidates(rows)
            setActive(0)
          },
          () => undefined,
        )
      }, 250),
    [projectId],
  )
  useEffect(() => {
    const abort = new AbortController()
    search(q, abort.signal)
    return () => {
      search.cancel()
      abort.abort()
    }
  }, [q, search])

  const userError = picked === null ? t('projectMembers.member.pickUser') : null
  const roleError = roleId === null ? t('projectMembers.member.pickRole') : null

  const submit = async (e?: FormEvent) => {
    e?.preventDefault()
    if (busy) return
    setShown(true)
    if (picked === null || roleId === null) return
    setBusy(true)
    const res = await host.run('projectMembers.addMember', 'button', { id: projectId, userId: picked.id, roleId })
    setBusy(false)
    if (res.ok) onClose()
  }

  const onSearchKey = (e: KeyboardEvent<HTMLInputElement>) => {
    const rows = candidates ?? []
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault()
      if (rows.length > 0) setActive((i) => (i + (e.key === 'ArrowDown' ? 1 : rows.length - 1)) % rows.length)
    } else if (e.key === 'Enter' && rows[active] && picked?.id !== rows[active].id) {
      // Enter picks the highlighted user; once picked, Enter submits.
      e.preventDefault()
      setPicked(rows[active])
    }
  }

  const describe = (c: Candidate) => [c.username, c.department].filter(Boolean).join(' · ')
  return (
    <Dialog isOpen title={t('projectMembers.command.addMember')} onClose={onClose}>
      <form onSubmit={(e) => void submit(e)} data-testid="add-member-dialog">
        <DialogBody>
          <FormGroup
            label={t('projectMembers.member.user')}
            labelFor="member-search"
            labelInfo="*"
            intent={shown && userError ? 'danger' : 'none'}
            helperText={shown ? userError : picked ? `${picked.name} ${describe(picked)}` : null}
          >
            <InputGroup
              id="member-search"
              autoFocus
              leftIcon="search"
              placeholder={t('projectMembers.member.search')}
              value={q}
              onChange={(e) => setQ(e.currentTarget.value)}
              onKeyDown={onSearchKey}
              role="combobox"
              aria-expanded={candidates !== null && candidates.length > 0}
              aria-controls="member-candidates"
              aria-activedescendant={candidates?.[active] ? `member-candidate-${candidates[active].id}` : undefined}
              data-testid="member-search"
            />
          </FormGroup>
          {candidates !== null && candidates.length === 0 ? (
            <NonIdealState icon="person" description={t('projectMembers.member.noCandidates')} />
          ) : (
            <Menu id="member-candidates" role="listbox" className="member-candidates" data-testid="member-candidates">
              {(candidates ?? []).map((c, i) => (
                <MenuItem
                  key={c.id}
                  id={`member-candidate-${c.id}`}
                  roleStructure="listoption"
                  text={c.name}
                  label={describe(c)}
                  active={i === active}
                  selected={picked?.id === c.id}
                  onClick={() => {
                    setActive(i)
                    setPicked(c)
                  }}
                  data-testid="member-candidate"
                />
              ))}
            </Menu>
          )}
          <FormGroup
            label={t('projectMembers.member.role')}
            labelFor="member-role"
            labelInfo="*"
            intent={shown && roleError ? 'danger' : 'none'}
            helperText={shown ? roleError : null}
          >
            <RoleSelect id="member-role" roles={roles} value={roleId} onChange={setRoleId} />
          </FormGroup>
        </DialogBody>
        <DialogFooter
          actions={
            <>
              <Button text={t('common.cancel')} onClick={onClose} />
              <BusyButton type="submit" intent="primary" loading={busy} text={t('common.save')} data-testid="add-member-save" />
            </>
          }
        />
      </form>
    </Dialog>
  )
}
