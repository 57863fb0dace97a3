import { useState } from 'react'
import { Button, Callout, DialogBody, DialogFooter, FileInput, FormGroup, HTMLTable, RadioGroup } from '@blueprintjs/core'
import { HTMLSelect } from '../../ui/HTMLSelect.tsx'
import { Dialog } from '../../ui/Dialog.tsx'
import type { Disease } from '../../../contract/dictionary.ts'
import {
  exchangeFormats,
  importModes,
  type ExchangeFormat,
  type ImportMode,
  type ImportResult,
  type ImportRowError,
} from '../../../contract/dictionaryExchange.ts'
import { importAccept, type ImportFailureData, type ImportListener } from '../../../commands/dictionary.ts'
import { joinList } from '../../i18n/index.ts'
import { useLang, useT } from '../../i18n/useT.ts'
import { useCommandHost } from '../../ui/commandHost.tsx'
import { bilingual } from '../../../contract/bilingual.ts'
import { BusyButton } from '../../ui/BusyButton.tsx'

type Outcome =
  | { kind: 'preview'; result: ImportResult }
  | { kind: 'done'; result: ImportResult }
  | { kind: 'refused'; failure: ImportFailureData }
  | { kind: 'failed'; message: string }

/**
 * Import a dictionary file (issue 4 item 3, issue 7 item 8): pick it, say its layout (or let the
 * server tell), what a code already here means (add only, or update), give REDCap fields a
 * disease; then a preview of what would be added, changed and left alone, and a confirm step
 * that runs the same import for real, all or nothing.
 */
export function ImportDialog({
  diseases,
  defaultDiseaseId,
  onClose,
}: {
  diseases: readonly Disease[]
  defaultDiseaseId?: number
  onClose: () => void
}) {
  const t = useT()
  const lang = useLang()
  const host = useCommandHost()
  const [file, setFile] = useState<File | null>(null)
  const [format, setFormat] = useState<ExchangeFormat | ''>('')
  const [mode, setMode] = useState<ImportMode>('add')
  const [diseaseId, setDiseaseId] = useState<number | undefined>(defaultDiseaseId)
  const [busy, setBusy] = useState(false)
  const [outcome, setOutcome] = useState<Outcome | null>(null)
  // Any change of the file or the options asks for a new preview.
  const reset = () => setOutcome(null)

  const run = async (dryRun: boolean) => {
    if (!file) return
    setBusy(true)
    setOutcome(null)
    const heard: { outcome: Outcome | null } = { outcome: null }
    const listener: ImportListener = {
      done: (result) => (heard.outcome = { kind: result.dryRun ? 'preview' : 'done', result }),
      refused: (failure) => (heard.outcome = { kind: 'refused', failure }),
    }
    const r = await host.run('dictionary.import', 'button', { file, format: format || undefined, diseaseId, mode, dryRun, listener })
    setBusy(false)
    if (heard.outcome) setOutcome(heard.outcome)
    else if (!r.ok) setOutcome({ kind: 'failed', message: r.error instanceof Error ? r.error.message : t('message.uploadFailed') })
  }
  const previewed = outcome?.kind === 'preview' ? outcome.result : null
  const confirmable = previewed !== null && previewed.errorsTotal === 0

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
              reset()
            }}
          />
        </FormGroup>
        <div className="import-options">
          <FormGroup label={t('dictionary.exchange.format')} labelFor="import-format">
            <HTMLSelect
              id="import-format"
              value={format}
              onChange={(e) => {
                setFormat(e.currentTarget.value as ExchangeFormat | '')
                reset()
              }}
              options={[
                { value: '', label: t('dictionary.exchange.auto') },
                ...exchangeFormats.map((f) => ({ value: f, label: t(`dictionary.exchange.formats.${f}`) })),
              ]}
            />
          </FormGroup>
          <FormGroup label={t('dictionary.import.disease')} labelFor="import-disease">
            <HTMLSelect
              id="import-disease"
              value={diseaseId === undefined ? '' : String(diseaseId)}
              onChange={(e) => {
                setDiseaseId(e.currentTarget.value ? Number(e.currentTarget.value) : undefined)
                reset()
              }}
              options={[
                { value: '', label: t('dictionary.import.noDisease') },
                ...diseases.map((d) => ({ value: String(d.id), label: bilingual(d.name, d.nameEn, lang) })),
              ]}
            />
          </FormGroup>
        </div>
        <RadioGroup
          label={t('dictionary.import.mode')}
          selectedValue={mode}
          onChange={(e) => {
            setMode(e.currentTarget.value as ImportMode)
            reset()
          }}
          options={importModes.map((m) => ({ value: m, label: t(`dictionary.import.modes.${m}`) }))}
        />
        {outcome && <Report outcome={outcome} />}
      </DialogBody>
      <DialogFooter
        actions={
          <>
            <Button text={t('common.close')} onClick={onClose} />
            <BusyButton
              intent={confirmable ? 'none' : 'primary'}
              icon="eye-open"
              text={t('dictionary.import.preview')}
              disabled={!file}
              loading={busy && !confirmable}
              data-testid="import-preview"
              onClick={() => void run(true)}
            />
            <BusyButton
              intent="primary"
              icon="upload"
              text={t('dictionary.import.confirm')}
              disabled={!confirmable}
              loading={busy && confirmable}
              data-testid="import-confirm"
              onClick={() => void run(false)}
            />
          </>
        }
      />
    </Dialog>
  )
}

/** The per-row errors of a preview or a refusal. */
function ErrorTable({ errors }: { errors: readonly ImportRowError[] }) {
  const t = useT()
  return (
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
  )
}

/** What the import would do: rows added and changed (with the fields that change); unchanged ones are only counted. */
function Preview({ result }: { result: ImportResult }) {
  const t = useT()
  const lang = useLang()
  const rows = result.outcomes.filter((o) => o.status !== 'unchanged')
  return (
    <div className="import-report" data-testid="import-preview-report">
      <Callout
        intent={result.errorsTotal > 0 ? 'danger' : 'primary'}
        title={t('dictionary.import.previewTitle', { added: result.added, changed: result.changed, unchanged: result.unchanged })}
      >
        {result.errorsTotal > 0 &&
          (result.errorsTotal === 1
            ? t('dictionary.import.previewErrorsOne')
            : t('dictionary.import.previewErrors', { count: result.errorsTotal }))}
      </Callout>
      {result.errors.length > 0 && <ErrorTable errors={result.errors} />}
      {rows.length > 0 && (
        <div className="import-report-table">
          <HTMLTable compact striped>
            <thead>
              <tr>
                <th>{t('dictionary.import.row')}</th>
                <th>{t('indicator.field.code')}</th>
                <th>{t('dictionary.import.outcome')}</th>
                <th>{t('dictionary.import.fields')}</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((o) => (
                <tr key={o.row}>
                  <td>{o.row}</td>
                  <td>{o.code}</td>
                  <td>{t(`dictionary.import.status.${o.status}`)}</td>
                  <td>
                    {joinList(
                      o.fields.map((f) => t(`indicator.field.${f}`)),
                      lang,
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </HTMLTable>
        </div>
      )}
    </div>
  )
}

function Report({ outcome }: { outcome: Outcome }) {
  const t = useT()
  if (outcome.kind === 'failed') return <Callout intent="danger">{outcome.message}</Callout>
  if (outcome.kind === 'preview') return <Preview result={outcome.result} />
  if (outcome.kind === 'refused') {
    const { errors, total } = outcome.failure
    return (
      <div className="import-report" data-testid="import-errors">
        <Callout intent="danger" title={total === 1 ? t('dictionary.import.refusedOne') : t('dictionary.import.refused', { count: total })}>
          {total > errors.length && t('dictionary.import.shown', { shown: errors.length, total })}
        </Callout>
        <ErrorTable errors={errors} />
      </div>
    )
  }
  const r = outcome.result
  return (
    <div className="import-report" data-testid="import-done">
      <Callout
        intent={r.unmappedTotal > 0 ? 'warning' : 'success'}
        title={
          r.mode === 'upsert'
            ? t('dictionary.import.doneUpsert', { added: r.added, changed: r.changed, unchanged: r.unchanged, templates: r.templates })
            : t('dictionary.import.done', { indicators: r.indicators, templates: r.templates })
        }
      >
        {t('dictionary.import.summary', {
          rows: r.rows,
          format: t(`dictionary.exchange.formats.${r.format}`),
          encoding: r.encoding ?? '—',
        })}
      </Callout>
      {r.unmappedTotal > 0 && (
        <>
          <p className="import-unmapped-title">
            {r.unmappedTotal === 1
              ? t('dictionary.import.unmappedCountOne')
              : t('dictionary.import.unmappedCount', { count: r.unmappedTotal })}
          </p>
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
