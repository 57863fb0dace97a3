import { useState, type FormEvent } from 'react'
import { Button, DialogBody, DialogFooter, FormGroup, InputGroup, TextArea } from '@blueprintjs/core'
import { HTMLSelect } from '../../ui/HTMLSelect.tsx'
import { Dialog } from '../../ui/Dialog.tsx'
import type { SampleDialogArgs } from '../../../commands/samples.ts'
import {
  collectedAtSpelling,
  isCollectedAt,
  sampleLimits,
  sampleTypes,
  sampleUnits,
  type Sample,
  type SampleFields,
  type SampleType,
  type SampleUnit,
} from '../../../contract/samples.ts'
import { useT } from '../../i18n/useT.ts'
import { useCommandHost } from '../../ui/commandHost.tsx'
import { BusyButton } from '../../ui/BusyButton.tsx'
import { formKeys, isKey } from '../../ui/keyReference.ts'
import { formatTime } from '../../lib/time.ts'

type Text = 'subjectNo' | 'sampleNo' | 'collectedAt' | 'quantity' | 'freezer' | 'rack' | 'box' | 'position' | 'remarks'

function initial(args: SampleDialogArgs): Record<Text, string> & { type: SampleType | ''; unit: SampleUnit | '' } {
  const s: Sample | null = args.mode === 'edit' ? args.sample : null
  return {
    subjectNo: (args.mode === 'create' ? args.subjectNo : undefined) ?? '',
    sampleNo: s?.sampleNo ?? '',
    type: s?.type ?? (args.mode === 'aliquot' ? args.parent.type : ''),
    collectedAt: s?.collectedAt ?? '',
    quantity: s?.quantity === null || s?.quantity === undefined ? '' : String(s.quantity),
    unit: s?.unit ?? (args.mode === 'aliquot' ? (args.parent.unit ?? '') : ''),
    freezer: s?.freezer ?? '',
    rack: s?.rack ?? '',
    box: s?.box ?? '',
    position: s?.position ?? '',
    remarks: s?.remarks ?? '',
  }
}

/**
 * A new sample of a subject (typed by its number), a new aliquot of a sample (its subject and
 * type inherited), or the edit of one: number (blank generates one), type, collection time,
 * quantity and unit, storage location, remarks. Checked here as the server checks; saved through
 * the sample commands, whose refusals are toasted and keep the dialog open.
 */
export function SampleDialog({ args, onClose }: { args: SampleDialogArgs; onClose(): void }) {
  const t = useT()
  const host = useCommandHost()
  const [v, setV] = useState(() => initial(args))
  const [busy, setBusy] = useState(false)
  const [shown, setShown] = useState(false)
  const set = (patch: Partial<typeof v>) => setV((x) => ({ ...x, ...patch }))
  const quantity = v.quantity.trim() === '' ? null : Number(v.quantity.trim())
  const collectedAt = collectedAtSpelling(v.collectedAt)

  const errors: Partial<Record<Text | 'type', string>> = {}
  if (args.mode === 'create' && v.subjectNo.trim() === '') errors.subjectNo = t('validatorMsg.pleaseInput', [t('samples.field.subjectNo')])
  if (v.type === '') errors.type = t('validatorMsg.pleaseSelect', [t('samples.field.type')])
  if (collectedAt !== '' && !isCollectedAt(collectedAt)) errors.collectedAt = t('samples.dialog.collectedAtInvalid')
  if (quantity !== null && (!Number.isFinite(quantity) || quantity < 0 || quantity > sampleLimits.quantity)) {
    errors.quantity = t('samples.dialog.quantityInvalid')
  }

  const submit = async (e?: FormEvent) => {
    e?.preventDefault()
    if (busy) return
    setShown(true)
    if (Object.keys(errors).length > 0 || v.type === '') return
    const fields: SampleFields = {
      sampleNo: v.sampleNo.trim(),
      type: v.type,
      collectedAt: collectedAt || null,
      quantity,
      unit: v.unit || null,
      freezer: v.freezer.trim(),
      rack: v.rack.trim(),
      box: v.box.trim(),
      position: v.position.trim(),
      remarks: v.remarks.trim(),
    }
    setBusy(true)
    const res =
      args.mode === 'create'
        ? await host.run('samples.new', 'button', { studyId: args.studyId, subjectNo: v.subjectNo.trim(), sample: fields })
        : args.mode === 'aliquot'
          ? await host.run('samples.newAliquot', 'button', { studyId: args.studyId, parentId: args.parent.id, sample: fields })
          : await host.run('samples.edit', 'button', { studyId: args.studyId, sampleId: args.sample.id, sample: fields })
    setBusy(false)
    if (res.ok) onClose()
  }

  const title =
    args.mode === 'create'
      ? t('samples.dialog.newTitle')
      : args.mode === 'aliquot'
        ? t('samples.dialog.aliquotTitle', [args.parent.sampleNo])
        : t('samples.dialog.editTitle', [args.sample.sampleNo])
  const inherited = args.mode === 'aliquot' || (args.mode === 'edit' && args.sample.parentId !== null)

  const text = (
    key: Text,
    label: string,
    max: number,
    extra: { autoFocus?: boolean; helper?: string; required?: boolean; now?: boolean } = {},
  ) => {
    const error = shown ? errors[key] : undefined
    return (
      <FormGroup
        label={label}
        labelFor={`sample-${key}`}
        labelInfo={extra.required ? '*' : undefined}
        intent={error ? 'danger' : 'none'}
        helperText={error ?? extra.helper}
      >
        <InputGroup
          id={`sample-${key}`}
          autoFocus={extra.autoFocus}
          maxLength={max}
          value={v[key]}
          intent={error ? 'danger' : 'none'}
          onChange={(e) => set({ [key]: e.currentTarget.value })}
          // A time takes the present minute on the key a form's date field has for it.
          aria-keyshortcuts={extra.now ? 'Control+;' : undefined}
          onKeyDown={(e) => {
            if (!extra.now || !isKey(formKeys.now, e)) return
            e.preventDefault()
            set({ [key]: formatTime(new Date(), '{y}-{m}-{d} {h}:{i}') ?? '' })
          }}
          data-testid={`sample-${key}`}
        />
      </FormGroup>
    )
  }

  return (
    <Dialog isOpen title={title} onClose={onClose} className="sample-dialog">
      <form onSubmit={(e) => void submit(e)} data-testid="sample-dialog">
        <DialogBody>
          {args.mode === 'create' && text('subjectNo', t('samples.field.subjectNo'), 50, { autoFocus: true, required: true })}
          {text('sampleNo', t('samples.field.sampleNo'), sampleLimits.sampleNo, {
            autoFocus: args.mode !== 'create',
            helper: t('samples.dialog.sampleNoHint'),
          })}
          <FormGroup
            label={t('samples.field.type')}
            labelFor="sample-type"
            labelInfo="*"
            intent={shown && errors.type ? 'danger' : 'none'}
            helperText={shown && errors.type ? errors.type : inherited ? t('samples.dialog.inherited') : undefined}
          >
            <HTMLSelect
              id="sample-type"
              data-testid="sample-type"
              value={v.type}
              disabled={inherited}
              onChange={(e) => set({ type: e.currentTarget.value as SampleType | '' })}
              options={[{ value: '', label: '—' }, ...sampleTypes.map((x) => ({ value: x, label: t(`samples.types.${x}`) }))]}
            />
          </FormGroup>
          {text('collectedAt', t('samples.field.collectedAt'), 16, { helper: t('samples.dialog.collectedAtHint'), now: true })}
          <div className="sample-dialog-row">
            {text('quantity', t('samples.field.quantity'), 20)}
            <FormGroup label={t('samples.field.unit')} labelFor="sample-unit">
              <HTMLSelect
                id="sample-unit"
                data-testid="sample-unit"
                value={v.unit}
                onChange={(e) => set({ unit: e.currentTarget.value as SampleUnit | '' })}
                options={[{ value: '', label: '—' }, ...sampleUnits.map((x) => ({ value: x, label: t(`samples.units.${x}`) }))]}
              />
            </FormGroup>
          </div>
          <div className="sample-dialog-row">
            {text('freezer', t('samples.field.freezer'), sampleLimits.location)}
            {text('rack', t('samples.field.rack'), sampleLimits.location)}
            {text('box', t('samples.field.box'), sampleLimits.location)}
            {text('position', t('samples.field.position'), sampleLimits.location)}
          </div>
          <FormGroup label={t('samples.field.remarks')} labelFor="sample-remarks">
            <TextArea
              id="sample-remarks"
              fill
              maxLength={sampleLimits.remarks}
              value={v.remarks}
              onChange={(e) => set({ remarks: e.currentTarget.value })}
            />
          </FormGroup>
        </DialogBody>
        <DialogFooter
          actions={
            <>
              <Button text={t('common.cancel')} onClick={onClose} />
              <BusyButton type="submit" intent="primary" text={t('common.save')} loading={busy} data-testid="sample-save" />
            </>
          }
        />
      </form>
    </Dialog>
  )
}
