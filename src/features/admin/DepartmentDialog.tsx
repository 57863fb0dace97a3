import { useState, type FormEvent } from 'react'
import { Button, DialogBody, DialogFooter, FormGroup, InputGroup } from '@blueprintjs/core'
import { HTMLSelect } from '../../ui/HTMLSelect.tsx'
import { Dialog } from '../../ui/Dialog.tsx'
import type { DepartmentDialogArgs } from '../../../commands/organization.ts'
import { departmentNameMax, type Department } from '../../../contract/organization.ts'
import { useT } from '../../i18n/useT.ts'
import { useCommandHost } from '../../ui/commandHost.tsx'
import { BusyButton } from '../../ui/BusyButton.tsx'

/** The ids of a department and everything under it: where it cannot be moved. */
export function subtreeOf(all: readonly Department[], id: number): Set<number> {
  const out = new Set([id])
  for (let grew = true; grew;) {
    grew = false
    for (const d of all) {
      if (d.parentId !== null && out.has(d.parentId) && !out.has(d.id)) {
        out.add(d.id)
        grew = true
      }
    }
  }
  return out
}

/** A department's path from the top ('Hospital / Cardiology'), for the move picker. */
function pathOf(all: readonly Department[], d: Department): string {
  const names = [d.name]
  for (let p = all.find((x) => x.id === d.parentId), i = 0; p && i < 100; p = all.find((x) => x.id === p?.parentId), i++)
    names.unshift(p.name)
  return names.join(' / ')
}

/** Create under a parent, rename, or "move to…": each saves through its command. */
export function DepartmentDialog({ args, all, onClose }: { args: DepartmentDialogArgs; all: readonly Department[]; onClose(): void }) {
  const t = useT()
  const host = useCommandHost()
  const [name, setName] = useState(args.mode === 'rename' ? args.name : '')
  const [target, setTarget] = useState<string>(() => {
    if (args.mode !== 'move') return ''
    const self = all.find((d) => d.id === args.id)
    return self?.parentId == null ? '' : String(self.parentId)
  })
  const [busy, setBusy] = useState(false)
  const [shown, setShown] = useState(false)
  const nameError = args.mode !== 'move' && name.trim() === '' ? t('validatorMsg.pleaseInput', [t('org.department.name')]) : null

  const submit = async (e?: FormEvent) => {
    e?.preventDefault()
    if (busy) return
    setShown(true)
    if (nameError) return
    setBusy(true)
    const res =
      args.mode === 'create'
        ? await host.run('admin.newDepartment', 'button', { name: name.trim(), parentId: args.parentId })
        : args.mode === 'rename'
          ? await host.run('admin.renameDepartment', 'button', { id: args.id, name: name.trim() })
          : await host.run('admin.moveDepartment', 'button', { id: args.id, parentId: target === '' ? null : Number(target) })
    setBusy(false)
    if (res.ok) onClose()
  }

  const excluded = args.mode === 'move' ? subtreeOf(all, args.id) : new Set<number>()
  const title = t(
    args.mode === 'create' ? 'org.department.newTitle' : args.mode === 'rename' ? 'org.department.renameTitle' : 'org.department.moveTitle',
  )
  const parent = args.mode === 'create' && args.parentId !== null ? all.find((d) => d.id === args.parentId) : undefined
  return (
    <Dialog isOpen title={title} onClose={onClose} className="department-dialog">
      <form onSubmit={(e) => void submit(e)}>
        <DialogBody>
          {parent && <p>{`${t('org.department.parent')}: ${pathOf(all, parent)}`}</p>}
          {args.mode === 'move' ? (
            <FormGroup label={t('org.department.parent')} labelFor="department-target">
              <HTMLSelect
                id="department-target"
                fill
                value={target}
                onChange={(e) => setTarget(e.currentTarget.value)}
                data-testid="department-target"
              >
                <option value="">{t('org.department.topLevel')}</option>
                {all
                  .filter((d) => !excluded.has(d.id))
                  .map((d) => (
                    <option key={d.id} value={d.id}>
                      {pathOf(all, d)}
                    </option>
                  ))}
              </HTMLSelect>
            </FormGroup>
          ) : (
            <FormGroup
              label={t('org.department.name')}
              labelFor="department-name"
              labelInfo="*"
              intent={shown && nameError ? 'danger' : 'none'}
              helperText={shown ? nameError : null}
            >
              <InputGroup
                id="department-name"
                autoFocus
                maxLength={departmentNameMax}
                value={name}
                intent={shown && nameError ? 'danger' : 'none'}
                onChange={(e) => setName(e.currentTarget.value)}
                data-testid="department-name"
              />
            </FormGroup>
          )}
        </DialogBody>
        <DialogFooter
          actions={
            <>
              <Button text={t('common.cancel')} onClick={onClose} />
              <BusyButton type="submit" intent="primary" text={t('common.save')} loading={busy} data-testid="department-save" />
            </>
          }
        />
      </form>
    </Dialog>
  )
}
