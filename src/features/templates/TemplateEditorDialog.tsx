import { useEffect, useState, type FormEvent } from 'react'
import { Button, Checkbox, DialogBody, DialogFooter, FormGroup, InputGroup, Spinner, Switch, TextArea } from '@blueprintjs/core'
import { HTMLSelect } from '../../ui/HTMLSelect.tsx'
import { Dialog } from '../../ui/Dialog.tsx'
import { collectTypes, templateInput, type CollectType, type Template, type TemplateKind } from '../../../contract/crf.ts'
import { useT } from '../../i18n/useT.ts'
import { invalidate } from '../../api/query.ts'
import { useCommandHost } from '../../ui/commandHost.tsx'
import { toast } from '../../ui/toaster.ts'
import { createTemplate } from './api/createTemplate.ts'
import { getTemplate } from './api/getTemplate.ts'
import { listTemplates } from './api/listTemplates.ts'
import { updateTemplate } from './api/updateTemplate.ts'
import { BusyButton } from '../../ui/BusyButton.tsx'

interface Draft {
  name: string
  description: string
  collectType: CollectType
  preposeIds: number[]
  status: 0 | 1
}

const blank: Draft = { name: '', description: '', collectType: 'all', preposeIds: [], status: 1 }

/**
 * Create or edit a CRF / question group: name, description, collect type (attribute), prepose
 * CRFs (CRFs only; the server refuses a cycle) and status. A new one opens in the designer.
 */
export function TemplateEditorDialog({ kind, id, onClose }: { kind: TemplateKind; id: number | null; onClose(): void }) {
  const t = useT()
  const host = useCommandHost()
  const [draft, setDraft] = useState<Draft | null>(id === null ? blank : null)
  const [crfs, setCrfs] = useState<Template[]>([])
  const [busy, setBusy] = useState(false)
  const [shown, setShown] = useState(false)
  const crf = kind === 'crf'

  useEffect(() => {
    let live = true
    if (id !== null)
      getTemplate(id).then(
        (tpl) =>
          live &&
          setDraft({
            name: tpl.name,
            description: tpl.description,
            collectType: tpl.collectType,
            preposeIds: [...tpl.preposeIds],
            status: tpl.status,
          }),
        () => live && onClose(),
      )
    if (crf)
      listTemplates({ kind: 'crf' }).then(
        (list) => live && setCrfs(list.filter((c) => c.id !== id)),
        () => undefined,
      )
    return () => {
      live = false
    }
  }, [id, crf, onClose])

  const nameError = draft && draft.name.trim() === '' ? t('validatorMsg.pleaseInput', [t('template.field.name')]) : null
  const set = (patch: Partial<Draft>) => setDraft((d) => (d ? { ...d, ...patch } : d))

  const submit = async (e?: FormEvent) => {
    e?.preventDefault()
    if (!draft || busy) return
    setShown(true)
    if (nameError) return
    const input = templateInput.parse({ ...draft, preposeIds: crf ? draft.preposeIds : [] })
    setBusy(true)
    try {
      const saved = id === null ? await createTemplate(kind, input) : await updateTemplate(id, input)
      invalidate('templates')
      toast(t(id === null ? 'template.created' : 'message.editSuccess', [saved.name]), 'success')
      onClose()
      if (id === null) void host.run('templates.design', 'button', { id: saved.id, kind })
    } catch {
      // The client showed the server's message (e.g. '{0} already exists', a prepose cycle).
    } finally {
      setBusy(false)
    }
  }

  const title = t(id === null ? (crf ? 'template.createCrf' : 'template.createGroup') : crf ? 'template.editCrf' : 'template.editGroup')
  return (
    <Dialog isOpen title={title} onClose={onClose} className="template-editor" data-testid="template-editor">
      {draft === null ? (
        <DialogBody>
          <Spinner />
        </DialogBody>
      ) : (
        <form onSubmit={(e) => void submit(e)}>
          <DialogBody>
            <FormGroup
              label={t('template.field.name')}
              labelFor="template-name"
              labelInfo="*"
              intent={shown && nameError ? 'danger' : 'none'}
              helperText={shown ? nameError : null}
            >
              <InputGroup
                id="template-name"
                autoFocus
                maxLength={100}
                value={draft.name}
                intent={shown && nameError ? 'danger' : 'none'}
                onChange={(e) => set({ name: e.currentTarget.value })}
                data-testid="template-name"
              />
            </FormGroup>
            <FormGroup label={t('template.field.description')} labelFor="template-description">
              <TextArea
                id="template-description"
                fill
                maxLength={1000}
                value={draft.description}
                onChange={(e) => set({ description: e.currentTarget.value })}
              />
            </FormGroup>
            <FormGroup label={t(crf ? 'template.field.collectType' : 'template.field.attribute')} labelFor="template-collect-type">
              <HTMLSelect
                id="template-collect-type"
                value={draft.collectType}
                onChange={(e) => set({ collectType: e.currentTarget.value as CollectType })}
              >
                {collectTypes.map((c) => (
                  <option key={c} value={c}>
                    {t(`template.collectType.${c}`)}
                  </option>
                ))}
              </HTMLSelect>
            </FormGroup>
            {crf && (
              <FormGroup label={t('template.field.prepose')} helperText={t('template.preposeHint')}>
                <div className="template-prepose" role="group" aria-label={t('template.field.prepose')}>
                  {crfs.length === 0 && <span className="bp6-text-muted">{t('template.noOtherCrf')}</span>}
                  {crfs.map((c) => (
                    <Checkbox
                      key={c.id}
                      label={c.name}
                      checked={draft.preposeIds.includes(c.id)}
                      onChange={(e) =>
                        set({
                          preposeIds: e.currentTarget.checked ? [...draft.preposeIds, c.id] : draft.preposeIds.filter((p) => p !== c.id),
                        })
                      }
                    />
                  ))}
                </div>
              </FormGroup>
            )}
            <Switch
              label={t('template.field.status')}
              checked={draft.status === 1}
              onChange={(e) => set({ status: e.currentTarget.checked ? 1 : 0 })}
              innerLabelChecked={t('template.status.on')}
              innerLabel={t('template.status.off')}
            />
          </DialogBody>
          <DialogFooter
            actions={
              <>
                <Button text={t('common.cancel')} onClick={onClose} />
                <BusyButton type="submit" intent="primary" text={t('common.save')} loading={busy} data-testid="template-save" />
              </>
            }
          />
        </form>
      )}
    </Dialog>
  )
}
