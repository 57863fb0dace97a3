import { useState, type FormEvent } from 'react'
import { Button, Callout, Checkbox, DialogBody, DialogFooter, FormGroup, InputGroup, Radio, RadioGroup, TextArea } from '@blueprintjs/core'
import { Dialog } from '../../ui/Dialog.tsx'
import {
  projectAuthorities,
  projectLimits,
  type ProjectAuthority,
  type ProjectDetail,
  type ProjectRole,
  type ProjectRoleInput,
} from '../../../contract/projects.ts'
import { useLang, useT } from '../../i18n/useT.ts'
import { bilingual } from '../../../contract/bilingual.ts'
import { useCommandHost } from '../../ui/commandHost.tsx'
import { blankRole, roleBoundsOf } from './roleBounds.ts'
import { BusyButton } from '../../ui/BusyButton.tsx'

const toggled = <T,>(list: readonly T[], value: T, on: boolean): T[] => (on ? [...list, value] : list.filter((v) => v !== value))

const inputOf = (r: ProjectRole): ProjectRoleInput => ({
  name: r.name,
  remarks: r.remarks,
  authorities: r.authorities,
  blinded: r.blinded,
  allQueues: r.allQueues,
  queueIds: r.queueIds,
  allCenters: r.allCenters,
  centerIds: r.centerIds,
})

/**
 * Create (role null) or edit a project role: name, remarks, the functional authorities, blinded,
 * and which queues and centers its members see (all, present and future, or the chosen ones of
 * this project). The manager role keeps everything: only its name and remarks are editable.
 * A member grants no more than their own role holds: what lies beyond it is offered disabled.
 * Saving runs the edit project role command; a refusal keeps the dialog open.
 */
export function ProjectRoleDialog({ project, role, onClose }: { project: ProjectDetail; role: ProjectRole | null; onClose(): void }) {
  const t = useT()
  const lang = useLang()
  const host = useCommandHost()
  const [draft, setDraft] = useState<ProjectRoleInput>(role ? inputOf(role) : blankRole(project.me))
  const bounds = roleBoundsOf(project.me)
  const [shown, setShown] = useState(false)
  const [busy, setBusy] = useState(false)
  const manager = role?.builtin === 'manager'
  const set = (patch: Partial<ProjectRoleInput>) => setDraft((d) => ({ ...d, ...patch }))
  const nameError = draft.name.trim() === '' ? t('validatorMsg.pleaseInput', [t('projectMembers.role.name')]) : null

  const submit = async (e?: FormEvent) => {
    e?.preventDefault()
    if (busy) return
    setShown(true)
    if (nameError) return
    setBusy(true)
    const input: ProjectRoleInput = {
      ...draft,
      name: draft.name.trim(),
      remarks: draft.remarks.trim(),
      // Only what the project still has: a queue or center removed since stays out.
      queueIds: draft.allQueues ? [] : draft.queueIds.filter((q) => project.queues.some((x) => x.id === q)),
      centerIds: draft.allCenters ? [] : draft.centerIds.filter((c) => project.centers.some((x) => x.id === c)),
    }
    const res = await host.run('projectMembers.editRole', 'button', { id: project.id, roleId: role?.id ?? null, role: input })
    setBusy(false)
    if (res.ok) onClose()
  }

  return (
    <Dialog isOpen title={t(role ? 'projectMembers.role.editTitle' : 'projectMembers.role.newTitle')} onClose={onClose}>
      <form onSubmit={(e) => void submit(e)} data-testid="project-role-dialog">
        <DialogBody>
          {manager && (
            <Callout intent="primary" icon="crown">
              {t('projectMembers.role.managerFixed')}
            </Callout>
          )}
          {!manager && bounds.narrowed && (
            <Callout intent="primary" icon="info-sign" data-testid="project-role-bounded">
              {t('projectMembers.role.bounded')}
            </Callout>
          )}
          <FormGroup
            label={t('projectMembers.role.name')}
            labelFor="project-role-name"
            labelInfo="*"
            intent={shown && nameError ? 'danger' : 'none'}
            helperText={shown ? nameError : null}
          >
            <InputGroup
              id="project-role-name"
              autoFocus
              maxLength={projectLimits.roleName}
              value={draft.name}
              onChange={(e) => set({ name: e.currentTarget.value })}
              data-testid="project-role-name"
            />
          </FormGroup>
          <FormGroup label={t('projectMembers.role.remarks')} labelFor="project-role-remarks">
            <TextArea
              id="project-role-remarks"
              fill
              maxLength={projectLimits.remarks}
              value={draft.remarks}
              onChange={(e) => set({ remarks: e.currentTarget.value })}
            />
          </FormGroup>
          <fieldset className="project-role-set" disabled={manager}>
            <legend>{t('projectMembers.role.authorities')}</legend>
            {projectAuthorities.map((a: ProjectAuthority) => (
              <Checkbox
                key={a}
                inline
                label={t(`projectMembers.authority.${a}`)}
                disabled={!bounds.authority(a)}
                checked={draft.authorities.includes(a)}
                onChange={(e) => set({ authorities: toggled(draft.authorities, a, e.currentTarget.checked) })}
                data-testid={`authority-${a}`}
              />
            ))}
            <Checkbox
              label={t('projectMembers.role.blinded')}
              disabled={!bounds.unblinded}
              checked={draft.blinded}
              onChange={(e) => set({ blinded: e.currentTarget.checked })}
              data-testid="project-role-blinded"
            />
          </fieldset>
          <fieldset className="project-role-set" disabled={manager}>
            <legend>{t('projectMembers.role.queues')}</legend>
            <RadioGroup
              inline
              selectedValue={draft.allQueues ? 'all' : 'chosen'}
              onChange={(e) => set({ allQueues: e.currentTarget.value === 'all' })}
            >
              <Radio value="all" label={t('projectMembers.role.allQueues')} disabled={!bounds.allQueues} />
              <Radio value="chosen" label={t('projectMembers.role.chosenQueues')} />
            </RadioGroup>
            {!draft.allQueues &&
              (project.queues.length === 0
                ? t('projectMembers.role.noQueues')
                : project.queues.map((q) => (
                    <Checkbox
                      key={q.id}
                      inline
                      label={`${q.name} (${q.key})`}
                      disabled={!bounds.queue(q.id)}
                      checked={draft.queueIds.includes(q.id)}
                      onChange={(e) => set({ queueIds: toggled(draft.queueIds, q.id, e.currentTarget.checked) })}
                      data-testid={`role-queue-${q.key}`}
                    />
                  )))}
          </fieldset>
          <fieldset className="project-role-set" disabled={manager}>
            <legend>{t('projectMembers.role.centers')}</legend>
            <RadioGroup
              inline
              selectedValue={draft.allCenters ? 'all' : 'chosen'}
              onChange={(e) => set({ allCenters: e.currentTarget.value === 'all' })}
            >
              <Radio value="all" label={t('projectMembers.role.allCenters')} disabled={!bounds.allCenters} />
              <Radio value="chosen" label={t('projectMembers.role.chosenCenters')} />
            </RadioGroup>
            {!draft.allCenters &&
              (project.centers.length === 0
                ? t('projectMembers.role.noCenters')
                : project.centers.map((c) => (
                    <Checkbox
                      key={c.id}
                      inline
                      label={`${bilingual(c.nameZh, c.nameEn, lang)} (${c.code})`}
                      disabled={!bounds.center(c.id)}
                      checked={draft.centerIds.includes(c.id)}
                      onChange={(e) => set({ centerIds: toggled(draft.centerIds, c.id, e.currentTarget.checked) })}
                      data-testid={`role-center-${c.code}`}
                    />
                  )))}
          </fieldset>
        </DialogBody>
        <DialogFooter
          actions={
            <>
              <Button text={t('common.cancel')} onClick={onClose} />
              <BusyButton type="submit" intent="primary" loading={busy} text={t('common.save')} data-testid="project-role-save" />
            </>
          }
        />
      </form>
    </Dialog>
  )
}
