import { useState } from 'react'
import { Button, Callout, Dialog, DialogBody, DialogFooter, FileInput, FormGroup, HTMLSelect, HTMLTable } from '@blueprintjs/core'
import type { Disease } from '../../../contract/dictionary.ts'
import { exchangeFormats, type ExchangeFormat, type ImportResult } from '../../../contract/dictionaryExchange.ts'
import { importAccept, type ImportFailureData, type ImportListener } from '../../../commands/dictionary.ts'
import { useLang, useT } from '../../i18n/useT.ts'
import { useCommandHost } from '../../ui/commandHost.tsx'

type Outcome = { kind: 'done'; result: ImportResult } | { kind: 'refused'; failure: ImportFailureData } | { kind: 'failed'; message: string }

/**
 * Import a dictionary file (issue 4 item 3): pick it, say its layout (or let the server tell),
 * give REDCap fields a disease, upload through the import command. All or nothing: a refusal
 * shows every refused cell by row; success shows the counts and what had no equivalent.
 */
export function ImportDialog({ diseases, defaultDiseaseId, onClose }: { diseases: readonly Disease[]; defaultDiseaseId?: number; onClose: () => void }) {
  const t = useT()
  const lang = useLang()
  const host = useCommandHost()
  const [file, setFile] = useState<File | null>(null)
  const [format, setFormat] = useState<ExchangeFormat | ''>('')
  const [diseaseId, setDiseaseId] = useState<number | undefined>(defaultDiseaseId)
  const [busy, setBusy] = useState(false)
  const [outcome, setOutcome] = useState<Outcome | null>(null)

  const upload = async () => {
    if (!file) return
    setBusy(true)
    setOutcome(null)
    const heard: { outcome: Outcome | null } = { outcome: null }
    const listener: ImportListener = {
      done: (result) => (heard.outcome = { kind: 'done', result }),
      refused: (failure) => (heard.outcome = { kind: 'refused', failure }),
    }
    const r = await host.run('dictionary.import', 'button', { file, format: format || undefined, diseaseId, listener })
    setBusy(false)
    if (heard.outcome) setOutcome(heard.outcome)
    else if (!r.ok) setOutcome({ kind: 'failed', message: r.error instanceof Error ? r.error.message : t('message.uploadFailed') })
  }

  return (
    <Dialog isOpen onClose={onClose} title={t('dictionary.import.title')} className="import-dialog" data-testid="import-dialog">
      <DialogBody>
        <FormGroup label={t('dictionary.import.file')} labelFor="import-file" helperText={t('dictionary.import.hint')}>
          <FileInput
            fill
            text={file?.name ?? t('dictionary.import.choose')}
            buttonText={t('dictionary.import.browse')}
            inputProps={{ id: 'import-file', accept: importAccept, 'aria-label': t('dictionary.import.file') }}
            onInputChange={(e) => {
              setFile(e.currentTarget.files?.[0] ?? null)
              setOutcome(null)
            }}
          />
        </FormGroup>
        <div className="import-options">
          <FormGroup label={t('dictionary.exchange.format')} labelFor="import-format">
            <HTMLSelect
              id="import-format"
              value={format}
              onChange={(e) => setFormat(e.currentTarget.value as ExchangeFormat | '')}
              options={[{ value: '', label: t('dictionary.exchange.auto') }, ...exchangeFormats.map((f) => ({ value: f, label: t(`dictionary.exchange.formats.${f}`) }))]}
            />
          </FormGroup>
          <FormGroup label={t('dictionary.import.disease')} labelFor="import-disease">
            <HTMLSelect
              id="import-disease"
              value={diseaseId === undefined ? '' : String(diseaseId)}
              onChange={(e) => setDiseaseId(e.currentTarget.value ? Number(e.currentTarget.value) : undefined)}
              options={[{ value: '', label: t('dictionary.import.noDisease') }, ...diseases.map((d) => ({ value: String(d.id), label: lang === 'en' && d.nameEn ? d.nameEn : d.name }))]}
            />
          </FormGroup>
        </div>
        {outcome && <Report outcome={outcome} />}
      </DialogBody>
      <DialogFooter
        actions={
          <>
            <Button text={t('common.close')} onClick={onClose} />
            <Button intent="primary" icon="upload" text={t('common.upload')} disabled={!file} loading={busy} data-testid="import-upload" onClick={() => void upload()} />
          </>
        }
      />
    </Dialog>
  )
}

function Report({ outcome }: { outcome: Outcome }) {
  const t = useT()
  if (outcome.kind === 'failed') return <Callout intent="danger">{outcome.message}</Callout>
  if (outcome.kind === 'refused') {
    const { errors, total } = outcome.failure
    return (
      <div className="import-report" data-testid="import-errors">
        <Callout intent="danger" title={t('dictionary.import.refused', { count: total })}>
          {total > errors.length && t('dictionary.import.shown', { shown: errors.length, total })}
        </Callout>
        <div className="import-report-table">
          <HTMLTable compact striped>
            <thead>
              <tr>
                <th>{t('dictionary.import.row')}</th>
                <th>{t('dictionary.import.column')}</th>
                <th>{t('dictionary.import.message')}</th>
              </tr>
            </thead>
            <tbody>
              {errors.map((e, i) => (
                <tr key={`${e.row}-${e.column}-${i}`}>
                  <td>{e.row}</td>
                  <td>{e.column || e.field}</td>
                  <td>{e.message}</td>
                </tr>
              ))}
            </tbody>
          </HTMLTable>
        </div>
      </div>
    )
  }
  const r = outcome.result
  return (
    <div className="import-report" data-testid="import-done">
      <Callout intent={r.unmappedTotal > 0 ? 'warning' : 'success'} title={t('dictionary.import.done', { indicators: r.indicators, templates: r.templates })}>
        {t('dictionary.import.summary', { rows: r.rows, format: t(`dictionary.exchange.formats.${r.format}`), encoding: r.encoding ?? '—' })}
      </Callout>
      {r.unmappedTotal > 0 && (
        <>
          <p className="import-unmapped-title">{t('dictionary.import.unmappedCount', { count: r.unmappedTotal })}</p>
          <div className="import-report-table">
            <HTMLTable compact striped>
              <thead>
                <tr>
                  <th>{t('dictionary.import.row')}</th>
                  <th>{t('indicator.field.code')}</th>
                  <th>{t('dictionary.import.column')}</th>
                  <th>{t('dictionary.import.value')}</th>
                  <th>{t('dictionary.import.message')}</th>
                </tr>
              </thead>
              <tbody>
                {r.unmapped.map((u, i) => (
                  <tr key={`${u.row}-${u.column}-${i}`}>
                    <td>{u.row}</td>
                    <td>{u.code}</td>
                    <td>{u.column}</td>
                    <td className="import-value">{u.value}</td>
                    <td>{u.message}</td>
                  </tr>
                ))}
              </tbody>
            </HTMLTable>
          </div>
        </>
      )}
    </div>
  )
}
