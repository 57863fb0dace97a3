import { Button, Callout, Checkbox, DialogBody, DialogFooter, FormGroup, H5, InputGroup, Radio, Spinner, Tag } from '@blueprintjs/core'
import { Dialog } from '../../ui/Dialog.tsx'
import { useEffect, useMemo, useState, type FormEvent } from 'react'
import { centerDialog } from '../../../commands/projectSetup.ts'
import { projectLimits, type Center, type CenterInput } from '../../../contract/projects.ts'
import { invalidate, useApi } from '../../api/query.ts'
import { useLang, useT } from '../../i18n/useT.ts'
import { bilingual } from '../../../contract/bilingual.ts'
import { debounce } from '../../lib/debounce.ts'
import { closeDialog, useDialog } from '../../state/dialogs.ts'
import type { DraftCenter } from '../../state/projectDraft.ts'
import { CommandButton } from '../../ui/CommandButton.tsx'
import { toast } from '../../ui/toaster.ts'
import { createCenter } from './api/createCenter.ts'
import { listCenters } from './api/listCenters.ts'
import { updateCenter } from './api/updateCenter.ts'
import { centerLabel, messageText, validateCenter, type CenterField, type Message } from './setupForms.ts'
import { BusyButton } from '../../ui/BusyButton.tsx'

const pageSize = 20

export const draftCenterOf = (c: Pick<Center, 'id' | 'code' | 'nameZh' | 'nameEn'>): DraftCenter => ({
  id: c.id,
  code: c.code,
  nameZh: c.nameZh,
  nameEn: c.nameEn,
})

/**
 * The center info: centers picked from the directory (search by code or name prefix), any number
 * for a multi-center project, exactly one for a single-center one; "new center" adds one to the
 * directory inline and picks it; each directory row can be edited or deleted (the server refuses
 * deleting a center a project uses).
 */
export function CenterPicker({
  scope,
  chosen,
  onChange,
  path,
  error,
}: {
  scope: 'multi' | 'single'
  chosen: readonly DraftCenter[]
  onChange(next: DraftCenter[]): void
  /** The view's path: the center dialog of this view. */
  path: string
  error: Message | null
}) {
  const t = useT()
  const lang = useLang()
  const [input, setInput] = useState('')
  const [q, setQ] = useState('')
  const [limit, setLimit] = useState(pageSize)
  const setSearch = useMemo(() => debounce((v: string) => setQ(v.trim()), 250), [])
  useEffect(() => () => setSearch.cancel(), [setSearch])
  const page = useApi(['centers', 'directory', q, limit], (signal) => listCenters({ q: q === '' ? undefined : q, limit }, { signal }))
  const picked = new Set(chosen.map((c) => c.id))
  const name = (c: DraftCenter) => `${bilingual(c.nameZh, c.nameEn, lang)} (${c.code})`

  const pick = (c: DraftCenter, on: boolean) => {
    if (scope === 'single') return onChange(on ? [c] : [])
    onChange(on ? [...chosen.filter((x) => x.id !== c.id), c] : chosen.filter((x) => x.id !== c.id))
  }

  const dialog = useDialog(centerDialog)
  const open = dialog && dialog.args.path === path ? dialog : null
  // The edit button sits on the row: the center is on the page shown.
  const editing = open?.args.centerId === undefined ? undefined : page.data?.rows.find((r) => r.id === open.args.centerId)
  return (
    <div className="project-centers">
      <section className="project-centers-chosen" aria-label={t('projectSetup.center.chosen')} data-testid="centers-chosen">
        <H5>{t('projectSetup.center.chosen')}</H5>
        {error && (
          <Callout intent="danger" role="alert" data-testid="centers-error">
            {messageText(t, error)}
          </Callout>
        )}
        {chosen.length === 0 ? (
          <p className="project-muted">{t('projectSetup.center.none')}</p>
        ) : (
          <ul className="project-center-tags">
            {chosen.map((c) => (
              <li key={c.id}>
                <Tag large data-testid="center-chosen">
                  {name(c)}
                </Tag>
                <Button
                  minimal
                  small
                  icon="cross"
                  aria-label={t('projectSetup.center.remove', [name(c)])}
                  title={t('projectSetup.center.remove', [name(c)])}
                  onClick={() => pick(c, false)}
                />
              </li>
            ))}
          </ul>
        )}
      </section>
      <section className="project-centers-directory" aria-label={t('projectSetup.center.directory')}>
        <div className="project-centers-bar">
          <H5>{t('projectSetup.center.directory')}</H5>
          <CommandButton id="projectSetup.addCenter" icon="add" small />
        </div>
        <InputGroup
          type="search"
          leftIcon="search"
          aria-label={t('projectSetup.center.search')}
          placeholder={t('projectSetup.center.search')}
          value={input}
          onChange={(e) => {
            setInput(e.currentTarget.value)
            setSearch(e.currentTarget.value)
          }}
          data-testid="center-search"
        />
        {page.data === undefined ? (
          <Spinner size={20} />
        ) : page.data.rows.length === 0 ? (
          <p className="project-muted">{t('projectSetup.center.noMatch')}</p>
        ) : (
          <ul className="project-center-list" data-testid="center-options">
            {page.data.rows.map((row) => {
              const c = draftCenterOf(row)
              const label = [name(c), row.region].filter((s) => s !== '').join(' · ')
              return (
                <li key={row.id} className="project-center-row">
                  {scope === 'single' ? (
                    <Radio
                      name={`${path}-center`}
                      checked={picked.has(row.id)}
                      label={label}
                      onChange={(e) => pick(c, e.currentTarget.checked)}
                      data-testid="center-option"
                    />
                  ) : (
                    <Checkbox
                      checked={picked.has(row.id)}
                      label={label}
                      onChange={(e) => pick(c, e.currentTarget.checked)}
                      data-testid="center-option"
                    />
                  )}
                  <CommandButton
                    id="projectSetup.editCenter"
                    args={{ centerId: row.id }}
                    icon="edit"
                    variant="minimal"
                    size="small"
                    iconOnly
                  />
                  <CommandButton
                    id="projectSetup.deleteCenter"
                    args={{ centerId: row.id, name: name(c) }}
                    icon="trash"
                    intent="danger"
                    variant="minimal"
                    size="small"
                    iconOnly
                  />
                </li>
              )
            })}
          </ul>
        )}
        {page.data?.next != null && (
          <Button minimal small text={t('projectSetup.center.more')} onClick={() => setLimit((n) => n + pageSize)} />
        )}
      </section>
      {open && (open.args.centerId === undefined || editing) && (
        <CenterDialog
          key={open.seq}
          center={editing}
          onClose={() => closeDialog(centerDialog)}
          onSaved={(center) => {
            const c = draftCenterOf(center)
            // A new center joins the selection; an edited one keeps its place with the new names.
            if (!editing) pick(c, true)
            else if (picked.has(c.id)) onChange(chosen.map((x) => (x.id === c.id ? c : x)))
            closeDialog(centerDialog)
          }}
        />
      )}
    </div>
  )
}

const blankCenter: CenterInput = { code: '', nameZh: '', nameEn: '', region: '' }
const centerMax: Record<CenterField, number> = {
  code: projectLimits.centerCode,
  nameZh: projectLimits.centerName,
  nameEn: projectLimits.centerNameEn,
  region: projectLimits.region,
}

/** "New center" adds a center to the directory, or edits `center` (code unique, names zh / en, region). */
function CenterDialog({ center, onClose, onSaved }: { center?: Center; onClose(): void; onSaved(center: Center): void }) {
  const t = useT()
  const [form, setForm] = useState<CenterInput>(
    center ? { code: center.code, nameZh: center.nameZh, nameEn: center.nameEn, region: center.region } : blankCenter,
  )
  const [shown, setShown] = useState(false)
  const [busy, setBusy] = useState(false)
  const { input, errors } = validateCenter(form)

  const submit = async (e: FormEvent) => {
    e.preventDefault()
    setShown(true)
    if (!input || busy) return
    setBusy(true)
    try {
      const saved = center ? await updateCenter(center.id, input) : await createCenter(input)
      invalidate('centers')
      // Project details show the centers' names.
      if (center) invalidate('projects')
      toast(t(center ? 'projectSetup.center.updated' : 'projectSetup.center.created', [saved.code]), 'success')
      onSaved(saved)
    } catch {
      // The client showed the server's message (e.g. the code is taken); the dialog stays.
    } finally {
      setBusy(false)
    }
  }

  const fields: CenterField[] = ['code', 'nameZh', 'nameEn', 'region']
  return (
    <Dialog
      isOpen
      title={center ? t('projectSetup.center.editCenter', [center.code]) : t('projectSetup.center.newCenter')}
      onClose={onClose}
      data-testid="center-dialog"
    >
      <form onSubmit={(e) => void submit(e)}>
        <DialogBody>
          {fields.map((f, i) => {
            const error = shown ? errors[f] : undefined
            return (
              <FormGroup
                key={f}
                label={t(centerLabel(f))}
                labelFor={`center-dialog-${f}`}
                labelInfo={f === 'code' || f === 'nameZh' ? '*' : undefined}
                intent={error ? 'danger' : 'none'}
                helperText={error ? messageText(t, error) : undefined}
              >
                <InputGroup
                  id={`center-dialog-${f}`}
                  autoFocus={i === 0}
                  maxLength={centerMax[f]}
                  value={form[f]}
                  intent={error ? 'danger' : 'none'}
                  onChange={(e) => setForm({ ...form, [f]: e.currentTarget.value })}
                  data-testid={`center-dialog-${f}`}
                />
              </FormGroup>
            )
          })}
        </DialogBody>
        <DialogFooter
          actions={
            <>
              <Button text={t('common.cancel')} onClick={onClose} />
              <BusyButton type="submit" intent="primary" text={t('common.save')} loading={busy} data-testid="center-dialog-save" />
            </>
          }
        />
      </form>
    </Dialog>
  )
}
