import { useEffect, useState, type FormEvent } from 'react'
import {
  Button,
  Callout,
  Checkbox,
  DialogBody,
  DialogFooter,
  FormGroup,
  H5,
  HTMLTable,
  InputGroup,
  Spinner,
  TextArea,
} from '@blueprintjs/core'
import { Dialog } from '../../ui/Dialog.tsx'
import { useSnapshot } from 'valtio'
import { menuEntryName } from '../../../contract/catalog.ts'
import { permissionAreas, type Permission, type PermissionArea } from '../../../contract/permissions.ts'
import { roleNameMax, roleRemarksMax, type RoleInput } from '../../../contract/roles.ts'
import { menus, screens } from '../../../contract/screens.ts'
import { useLang, useT } from '../../i18n/useT.ts'
import { screenTitle } from '../../state/catalog.ts'
import { session } from '../../state/session.ts'
import { useCommandHost } from '../../ui/commandHost.tsx'
import { getRole } from './api/getRole.ts'
import { BusyButton } from '../../ui/BusyButton.tsx'

interface Draft {
  nameZh: string
  nameEn: string
  remarks: string
  screens: ReadonlySet<string>
  permissions: ReadonlySet<Permission>
  superuser: boolean
}

const blank: Draft = { nameZh: '', nameEn: '', remarks: '', screens: new Set(), permissions: new Set(), superuser: false }

const areas = Object.keys(permissionAreas) as PermissionArea[]
/** Every verb of any area, in first-seen order: the grid's columns. */
const verbs = [...new Set(areas.flatMap((a) => [...permissionAreas[a]]))]

const toggled = <T,>(set: ReadonlySet<T>, value: T, on: boolean): ReadonlySet<T> => {
  const next = new Set(set)
  if (on) next.add(value)
  else next.delete(value)
  return next
}

/**
 * Create (id null) or edit a system role: names, remarks, and its grants: permissions as a grid of
 * areas × verbs, screens as a checklist grouped by menu. The system administrator holds
 * everything: shown so, not editable. Saving runs the new role / edit role grants command.
 */
export function RoleEditorDialog({ id, onClose }: { id: number | null; onClose(): void }) {
  const t = useT()
  const lang = useLang()
  const host = useCommandHost()
  const { catalog } = useSnapshot(session)
  const [draft, setDraft] = useState<Draft | null>(id === null ? blank : null)
  const [busy, setBusy] = useState(false)
  const [shown, setShown] = useState(false)

  useEffect(() => {
    if (id === null) return
    let live = true
    getRole(id).then(
      (r) =>
        live &&
        setDraft({
          nameZh: r.nameZh,
          nameEn: r.nameEn,
          remarks: r.remarks,
          screens: new Set(r.screens),
          permissions: new Set(r.permissions),
          superuser: r.superuser,
        }),
      () => live && onClose(),
    )
    return () => {
      live = false
    }
  }, [id, onClose])

  const set = (patch: Partial<Draft>) => setDraft((d) => (d ? { ...d, ...patch } : d))
  const nameError = draft && draft.nameZh.trim() === '' ? t('validatorMsg.pleaseInput', [t('org.role.nameZh')]) : null
  const locked = draft?.superuser === true

  const submit = async (e?: FormEvent) => {
    e?.preventDefault()
    if (!draft || busy || locked) return
    setShown(true)
    if (nameError) return
    const input: RoleInput = {
      nameZh: draft.nameZh.trim(),
      nameEn: draft.nameEn.trim(),
      remarks: draft.remarks.trim(),
      screens: [...draft.screens],
      permissions: [...draft.permissions],
    }
    setBusy(true)
    const res =
      id === null ? await host.run('admin.newRole', 'button', input) : await host.run('admin.editRoleGrants', 'button', { id, input })
    setBusy(false)
    // A refusal (a taken name, a grant the user does not hold) was shown; the dialog stays.
    if (res.ok) onClose()
  }

  const title = t(id === null ? 'org.role.newTitle' : 'org.role.editTitle')
  return (
    <Dialog isOpen title={title} onClose={onClose} className="role-editor">
      {draft === null ? (
        <DialogBody>
          <Spinner />
        </DialogBody>
      ) : (
        <form onSubmit={(e) => void submit(e)}>
          <DialogBody>
            {locked && (
              <Callout intent="primary" icon="crown" data-testid="role-super">
                {t('org.role.superNotEditable')}
              </Callout>
            )}
            <div className="role-names">
              <FormGroup
                label={t('org.role.nameZh')}
                labelFor="role-nameZh"
                labelInfo="*"
                intent={shown && nameError ? 'danger' : 'none'}
                helperText={shown ? nameError : null}
              >
                <InputGroup
                  id="role-nameZh"
                  autoFocus
                  maxLength={roleNameMax}
                  disabled={locked}
                  value={draft.nameZh}
                  onChange={(e) => set({ nameZh: e.currentTarget.value })}
                  data-testid="role-nameZh"
                />
              </FormGroup>
              <FormGroup label={t('org.role.nameEn')} labelFor="role-nameEn">
                <InputGroup
                  id="role-nameEn"
                  maxLength={roleNameMax}
                  disabled={locked}
                  value={draft.nameEn}
                  onChange={(e) => set({ nameEn: e.currentTarget.value })}
                  data-testid="role-nameEn"
                />
              </FormGroup>
            </div>
            <FormGroup label={t('org.role.remarks')} labelFor="role-remarks">
              <TextArea
                id="role-remarks"
                fill
                maxLength={roleRemarksMax}
                disabled={locked}
                value={draft.remarks}
                onChange={(e) => set({ remarks: e.currentTarget.value })}
              />
            </FormGroup>
            {!locked && (
              <>
                <H5>{t('org.role.permissions')}</H5>
                <HTMLTable compact className="role-grid" data-testid="role-permissions">
                  <thead>
                    <tr>
                      <th scope="col">{t('org.role.area')}</th>
                      {verbs.map((v) => (
                        <th key={v} scope="col">
                          {t(`org.perm.verb.${v}`)}
                        </th>
                      ))}
                    </tr>
                  </thead>
                  <tbody>
                    {areas.map((a) => (
                      <tr key={a}>
                        <th scope="row">{t(`org.perm.area.${a}`)}</th>
                        {verbs.map((v) => {
                          const p = `${a}.${v}` as Permission
                          return (
                            <td key={v}>
                              {(permissionAreas[a] as readonly string[]).includes(v) && (
                                <Checkbox
                                  className="role-grid-check"
                                  aria-label={`${t(`org.perm.area.${a}`)} · ${t(`org.perm.verb.${v}`)}`}
                                  checked={draft.permissions.has(p)}
                                  onChange={(e) => set({ permissions: toggled(draft.permissions, p, e.currentTarget.checked) })}
                                  data-testid={`perm-${p}`}
                                />
                              )}
                            </td>
                          )
                        })}
                      </tr>
                    ))}
                  </tbody>
                </HTMLTable>
                <H5>{t('org.role.screens')}</H5>
                <div className="role-screens" data-testid="role-screens">
                  {menus.map((m) => {
                    const items = screens.filter((s) => s.menu === m.id)
                    return (
                      <fieldset key={m.id} className="role-screen-group">
                        <legend>{screenTitle(menuEntryName(m.id), lang, catalog)}</legend>
                        {items.map((s) => (
                          <Checkbox
                            key={s.name}
                            label={screenTitle(s.name, lang, catalog)}
                            checked={draft.screens.has(s.name)}
                            onChange={(e) => set({ screens: toggled(draft.screens, s.name, e.currentTarget.checked) })}
                            data-testid={`screen-${s.name}`}
                          />
                        ))}
                      </fieldset>
                    )
                  })}
                </div>
              </>
            )}
          </DialogBody>
          <DialogFooter
            actions={
              <>
                <Button text={t(locked ? 'common.close' : 'common.cancel')} onClick={onClose} />
                {!locked && <BusyButton type="submit" intent="primary" text={t('common.save')} loading={busy} data-testid="role-save" />}
              </>
            }
          />
        </form>
      )}
    </Dialog>
  )
}
