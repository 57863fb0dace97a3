import { useState } from 'react'
import { Button, Checkbox, DialogBody, DialogFooter, FormGroup, RadioGroup } from '@blueprintjs/core'
import { Dialog } from '../../ui/Dialog.tsx'
import { exchangeFormats, type ExchangeFormat } from '../../../contract/dictionaryExchange.ts'
import { useT } from '../../i18n/useT.ts'
import { useCommandHost } from '../../ui/commandHost.tsx'
import { BusyButton } from '../../ui/BusyButton.tsx'

/** Export the dictionary (all, or what the list's filters show) as xlsx, CSV or REDCap. */
export function ExportDialog({ filters, onClose }: { filters: Record<string, string | number | undefined>; onClose: () => void }) {
  const t = useT()
  const host = useCommandHost()
  const [format, setFormat] = useState<ExchangeFormat>('xlsx')
  const filtered = Object.values(filters).some((v) => v !== undefined && v !== '')
  const [useFilters, setUseFilters] = useState(filtered)
  const [busy, setBusy] = useState(false)
  const clean = Object.fromEntries(Object.entries(filters).filter(([, v]) => v !== undefined && v !== ''))

  const run = async () => {
    setBusy(true)
    const r = await host.run('dictionary.export', 'button', { format, filters: useFilters ? clean : undefined })
    setBusy(false)
    if (r.ok) onClose()
  }

  return (
    <Dialog isOpen onClose={onClose} title={t('dictionary.export.title')} data-testid="export-dialog">
      <DialogBody>
        <FormGroup label={t('dictionary.exchange.format')}>
          <RadioGroup
            selectedValue={format}
            onChange={(e) => setFormat(e.currentTarget.value as ExchangeFormat)}
            options={exchangeFormats.map((f) => ({ value: f, label: t(`dictionary.exchange.formats.${f}`) }))}
          />
        </FormGroup>
        <Checkbox
          checked={useFilters}
          disabled={!filtered}
          label={t('dictionary.export.filtered')}
          onChange={(e) => setUseFilters(e.currentTarget.checked)}
        />
      </DialogBody>
      <DialogFooter
        actions={
          <>
            <Button text={t('common.cancel')} onClick={onClose} />
            <BusyButton
              intent="primary"
              icon="download"
              text={t('dictionary.export.run')}
              loading={busy}
              data-testid="export-run"
              onClick={() => void run()}
            />
          </>
        }
      />
    </Dialog>
  )
}
