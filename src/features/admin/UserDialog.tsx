import { useEffect, useState, type FormEvent } from 'react'
import { Checkbox, DialogBody, DialogFooter, FormGroup, InputGroup, Spinner, Switch, TextArea, Button } from '@blueprintjs/core'
import { HTMLSelect } from '../../ui/HTMLSelect.tsx'
import { Dialog } from '../../ui/Dialog.tsx'
import { useSnapshot } from 'valtio'
import { usernameMaxLength, usernamePattern } from '../../../contract/auth.ts'
import type { Career, Department } from '../../../contract/organization.ts'
import { userDescriptionMax, userNameMax, type UserInput } from '../../../contract/users.ts'
import { useT } from '../../i18n/useT.ts'
import { isMobilePhone } from '../../lib/validators.ts'
import { session } from '../../state/session.ts'
import { useCommandHost } from '../../ui/commandHost.tsx'
import { getUser } from './api/getUser.ts'
import { UserPicture } from './UserPicture.tsx'
import { BusyButton } from '../../ui/BusyButton.tsx'

interface Draft {
  name: string
  username: string
  platform: string
  departmentId: number | null
  careerId: number | null
  mobile: string
  email: string
  description: string
  status: 0 | 1
  roleIds: number[]
  image: string
}

const blank: Draft = {
  name: '',
  username: '',
  platform: 'web',
  departmentId: null,
  careerId: null,
  mobile: '',
  email: '',
  description: '',
  status: 1,
  roleIds: [],
  image: '',
}

/** Loose on purpose: the server's check (zod's e-mail) is the one that decides. */
const looksLikeEmail = (v: string) => /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(v)

/**
 * Create (id null) or edit a person: name, department, career, mobile (SPEC §5), e-mail,
 * description, roles; a new one also gets a username and its one-time password (the commands
 * open that dialog). The avatar (picture field) is set once the person exists.
 */
/** A role as the picker offers it: its name in the reader's language. */
export interface RoleChoice {
  id: number
  name: string
  builtin: string | null
}

export function UserDialog({
  id,
  roles,
  departments,
  careers,
  onClose,
}: {
  id: number | null
  roles: readonly RoleChoice[]
  departments: readonly Department[]
  careers: readonly Career[]
  onClose(): void
}) {
  const t = useT()
  const host = useCommandHost()
  const { userId: me } = useSnapshot(session)
  const [draft, setDraft] = useState<Draft | null>(id === null ? blank : null)
  const [initialRoles, setInitialRoles] = useState<number[]>([])
  const [shown, setShown] = useState(false)
  const [busy, setBusy] = useState(false)
  const creating = id === null
  const self = id !== null && id === me

  useEffect(() => {
    if (id === null) return
    let live = true
    getUser(id).then(
      (u) => {
        if (!live) return
        const roleIds = u.roles.map((r) => r.id)
        setInitialRoles(roleIds)
        setDraft({
          ...blank,
          name: u.name,
          departmentId: u.departmentId,
          careerId: u.careerId,
          mobile: u.mobile,
          email: u.email,
          description: u.description,
          status: u.status === 0 ? 0 : 1,
          roleIds,
          image: u.image,
        })
      },
      () => live && onClose(),
    )
    return () => {
      live = false
    }
  }, [id, onClose])

  const set = (patch: Partial<Draft>) => setDraft((d) => (d ? { ...d, ...patch } : d))
  const label = (f: string) => t(`admin.user.field.${f}`)

  const errors: Partial<Record<'name' | 'username' | 'mobile' | 'email', string>> = {}
  if (draft) {
    if (draft.name.trim() === '') errors.name = t('admin.user.rule.required', [label('name')])
    else if (draft.name.trim().length > userNameMax) errors.name = t('admin.user.rule.tooLong', [label('name'), userNameMax])
    if (creating && draft.username.trim() === '') errors.username = t('admin.user.rule.required', [label('username')])
    else if (creating && !usernamePattern.test(draft.username.trim())) errors.username = t('admin.user.rule.username')
    if (draft.mobile.trim() !== '' && !isMobilePhone(draft.mobile.trim())) errors.mobile = t('validatorMsg.phone')
    if (draft.email.trim() !== '' && !looksLikeEmail(draft.email.trim())) errors.email = t('admin.user.rule.email')
  }
  const invalid = Object.keys(errors).length > 0

  const submit = async (e?: FormEvent) => {
    e?.preventDefault()
    if (!draft || busy) return
    setShown(true)
    if (invalid) return
    const input: UserInput = {
      name: draft.name.trim(),
      departmentId: draft.departmentId,
      careerId: draft.careerId,
      mobile: draft.mobile.trim(),
      email: draft.email.trim(),
      description: draft.description,
      status: draft.status,
    }
    setBusy(true)
    try {
      if (creating) {
        const r = await host.run('admin.createUser', 'button', {
          ...input,
          username: draft.username.trim(),
          platform: draft.platform.trim() || 'web',
          roleIds: draft.roleIds,
        })
        if (r.ok) onClose()
        return
      }
      const r = await host.run('admin.updateUser', 'button', { id, input })
      if (!r.ok) return
      const rolesChanged = [...draft.roleIds].sort().join() !== [...initialRoles].sort().join()
      if (rolesChanged && !self && !(await host.run('admin.assignRoles', 'button', { id, roleIds: draft.roleIds })).ok) return
      onClose()
    } finally {
      setBusy(false)
    }
  }

  const field = (name: keyof typeof errors) => ({
    intent: shown && errors[name] ? ('danger' as const) : ('none' as const),
    helperText: shown ? errors[name] : undefined,
  })

  return (
    <Dialog isOpen title={t(creating ? 'admin.user.newTitle' : 'admin.user.editTitle')} onClose={onClose} className="user-dialog">
      <div data-testid="user-dialog">
        {draft === null ? (
          <DialogBody>
            <Spinner />
          </DialogBody>
        ) : (
          <form onSubmit={(e) => void submit(e)}>
            <DialogBody>
              {id !== null && (
                <FormGroup label={label('image')}>
                  <UserPicture userId={id} path={draft.image} disabled={draft.status !== 1} onChange={(image) => set({ image })} />
                </FormGroup>
              )}
              <FormGroup label={label('name')} labelFor="user-name" labelInfo="*" {...field('name')}>
                <InputGroup
                  id="user-name"
                  autoFocus
                  maxLength={userNameMax}
                  value={draft.name}
                  onChange={(e) => set({ name: e.currentTarget.value })}
                  data-testid="user-name"
                />
              </FormGroup>
              {creating && (
                <FormGroup label={label('username')} labelFor="user-username" labelInfo="*" {...field('username')}>
                  <InputGroup
                    id="user-username"
                    maxLength={usernameMaxLength}
                    autoComplete="off"
                    value={draft.username}
                    onChange={(e) => set({ username: e.currentTarget.value })}
                    data-testid="user-username"
                  />
                </FormGroup>
              )}
              <FormGroup label={label('department')} labelFor="user-department">
                <HTMLSelect
                  id="user-department"
                  value={draft.departmentId === null ? '' : String(draft.departmentId)}
                  onChange={(e) => set({ departmentId: e.currentTarget.value ? Number(e.currentTarget.value) : null })}
                  options={[
                    { value: '', label: t('admin.user.none') },
                    ...departments.map((d) => ({ value: String(d.id), label: d.name })),
                  ]}
                  data-testid="user-department"
                />
              </FormGroup>
              <FormGroup label={label('career')} labelFor="user-career">
                <HTMLSelect
                  id="user-career"
                  value={draft.careerId === null ? '' : String(draft.careerId)}
                  onChange={(e) => set({ careerId: e.currentTarget.value ? Number(e.currentTarget.value) : null })}
                  options={[{ value: '', label: t('admin.user.none') }, ...careers.map((c) => ({ value: String(c.id), label: c.name }))]}
                  data-testid="user-career"
                />
              </FormGroup>
              <FormGroup label={label('mobile')} labelFor="user-mobile" {...field('mobile')}>
                <InputGroup
                  id="user-mobile"
                  inputMode="tel"
                  maxLength={11}
                  value={draft.mobile}
                  onChange={(e) => set({ mobile: e.currentTarget.value })}
                  data-testid="user-mobile"
                />
              </FormGroup>
              <FormGroup label={label('email')} labelFor="user-email" {...field('email')}>
                <InputGroup
                  id="user-email"
                  type="email"
                  maxLength={254}
                  value={draft.email}
                  onChange={(e) => set({ email: e.currentTarget.value })}
                  data-testid="user-email"
                />
              </FormGroup>
              <FormGroup label={label('description')} labelFor="user-description">
                <TextArea
                  id="user-description"
                  fill
                  maxLength={userDescriptionMax}
                  value={draft.description}
                  onChange={(e) => set({ description: e.currentTarget.value })}
                />
              </FormGroup>
              {creating && (
                <Switch
                  checked={draft.status === 1}
                  label={t(`admin.user.statuses.${draft.status}`)}
                  onChange={() => set({ status: draft.status === 1 ? 0 : 1 })}
                  data-testid="user-status"
                />
              )}
              <FormGroup label={label('roles')} helperText={self ? t('admin.user.ownRoles') : undefined}>
                <div role="group" aria-label={label('roles')} data-testid="role-picker" className="user-role-picker">
                  {roles.map((r) => (
                    <Checkbox
                      key={r.id}
                      label={r.name}
                      disabled={self}
                      checked={draft.roleIds.includes(r.id)}
                      data-testid={`role-${r.builtin ?? r.id}`}
                      onChange={() =>
                        set({ roleIds: draft.roleIds.includes(r.id) ? draft.roleIds.filter((x) => x !== r.id) : [...draft.roleIds, r.id] })
                      }
                    />
                  ))}
                </div>
              </FormGroup>
            </DialogBody>
            <DialogFooter
              actions={
                <>
                  <Button text={t('common.cancel')} onClick={onClose} />
                  <BusyButton type="submit" intent="primary" text={t('common.save')} loading={busy} data-testid="user-save" />
                </>
              }
            />
          </form>
        )}
      </div>
    </Dialog>
  )
}
