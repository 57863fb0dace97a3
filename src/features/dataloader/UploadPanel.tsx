import { useState, type DragEvent } from 'react'
import { Callout, FormGroup, HTMLTable, Icon, ProgressBar, Switch } from '@blueprintjs/core'
import { HTMLSelect } from '../../ui/HTMLSelect.tsx'
import { useSnapshot } from 'valtio'
import { uploadSummary } from '../../../commands/dataLoader.ts'
import { uploadFormats, type LoadableCrf, type UploadFormat, type UploadResult } from '../../../contract/dataLoader.ts'
import { useT } from '../../i18n/useT.ts'
import { useCommandHost } from '../../ui/commandHost.tsx'
import { BusyButton } from '../../ui/BusyButton.tsx'
import { CommandButton } from '../../ui/CommandButton.tsx'
import { EventMapEditor } from './EventMapEditor.tsx'
import { eventMap, panelListener, uploadPanel } from './uploadState.ts'

/**
 * The upload: a drop zone and a file button (both run the upload command with the panel's
 * choices), the bytes sent and then the server's checking, and the answer: the counts, or every
 * bad cell of a refusal with the error report to download.
 */
export function UploadPanelView({ studyId, crfs }: { studyId: number; crfs: readonly LoadableCrf[] }) {
  const t = useT()
  const host = useCommandHost()
  const panel = uploadPanel(studyId)
  const s = useSnapshot(panel)
  const [over, setOver] = useState(false)
  const busy = s.phase === 'sending' || s.phase === 'processing'

  const upload = (file?: File) =>
    void host.run('dataLoad.upload', 'button', {
      studyId,
      file,
      templateId: s.templateId,
      format: s.format,
      enrol: s.enrol,
      events: eventMap(panel),
      listener: panelListener(studyId),
    })

  const onDrop = (e: DragEvent) => {
    e.preventDefault()
    setOver(false)
    const file = e.dataTransfer.files[0]
    if (file && !busy) upload(file)
  }

  return (
    <div className="data-loading-panel" data-testid="data-loading-upload">
      <div className="data-loading-options">
        <FormGroup label={t('dataLoad.upload.template')} labelFor="upload-template" helperText={t('dataLoad.upload.templateAuto')}>
          <HTMLSelect
            id="upload-template"
            value={s.templateId === undefined ? '' : String(s.templateId)}
            onChange={(e) => (panel.templateId = e.currentTarget.value ? Number(e.currentTarget.value) : undefined)}
            options={[{ value: '', label: '—' }, ...crfs.map((c) => ({ value: String(c.templateId), label: c.name }))]}
          />
        </FormGroup>
        <FormGroup label={t('dataLoad.upload.format')} labelFor="upload-format">
          <HTMLSelect
            id="upload-format"
            value={s.format}
            onChange={(e) => (panel.format = e.currentTarget.value as UploadFormat)}
            options={uploadFormats.map((f) => ({ value: f, label: t(`dataLoad.upload.formats.${f}`) }))}
          />
        </FormGroup>
        <FormGroup helperText={t('dataLoad.upload.enrolHint')}>
          <Switch
            checked={s.enrol}
            label={t('dataLoad.upload.enrol')}
            data-testid="upload-enrol"
            onChange={(e) => (panel.enrol = e.currentTarget.checked)}
          />
        </FormGroup>
        {s.format === 'redcap' && <EventMapEditor studyId={studyId} />}
      </div>
      <div
        className={`data-loading-drop${over ? ' is-over' : ''}`}
        data-testid="upload-drop"
        onDragOver={(e) => {
          e.preventDefault()
          setOver(true)
        }}
        onDragLeave={() => setOver(false)}
        onDrop={onDrop}
      >
        <Icon icon="cloud-upload" size={32} />
        <strong>{t('dataLoad.upload.drop')}</strong>
        <span className="data-loading-note">{t('dataLoad.upload.dropHint')}</span>
        <BusyButton
          intent="primary"
          icon="document-open"
          text={t('dataLoad.upload.choose')}
          loading={busy}
          data-testid="upload-choose"
          onClick={() => upload()}
        />
      </div>
      <Stage studyId={studyId} />
    </div>
  )
}

function Stage({ studyId }: { studyId: number }) {
  const t = useT()
  const s = useSnapshot(uploadPanel(studyId))
  const name = s.fileName
  if (s.phase === 'idle') return null
  if (s.phase === 'sending')
    return (
      <div className="data-loading-stage" role="status" data-testid="upload-stage" data-phase="sending">
        <span>{t('dataLoad.upload.sending', { name, percent: Math.round(s.fraction * 100) })}</span>
        <ProgressBar value={s.fraction} intent="primary" stripes={false} />
      </div>
    )
  if (s.phase === 'processing')
    return (
      <div className="data-loading-stage" role="status" data-testid="upload-stage" data-phase="processing">
        <span>{t('dataLoad.upload.processing', { name })}</span>
        <ProgressBar intent="primary" />
      </div>
    )
  if (s.phase === 'failed')
    return (
      <Callout intent="danger" role="alert" data-testid="upload-failed">
        {t('dataLoad.upload.failed', [s.failure])}
      </Callout>
    )
  const result = s.result as UploadResult | null
  if (!result) return null
  if (s.phase === 'done')
    return (
      <Callout intent="success" role="status" title={t('dataLoad.upload.done', { name })} data-testid="upload-done">
        {uploadSummary(t, result)}
      </Callout>
    )
  return <Refusal studyId={studyId} result={result} />
}

/** Every bad cell the answer names (the report lists all of them) and the report to download. */
function Refusal({ studyId, result }: { studyId: number; result: UploadResult }) {
  const t = useT()
  const title = result.errorsTotal === 1 ? t('dataLoad.upload.refusedOne') : t('dataLoad.upload.refused', { count: result.errorsTotal })
  // A CSV has no sheets: its errors leave that column empty, so it is not drawn.
  const sheets = result.errors.some((e) => e.sheet !== '')
  return (
    <div className="data-loading-refusal" data-testid="upload-refused">
      <Callout intent="danger" role="alert" title={title}>
        {result.errorsTotal > result.errors.length && (
          <p>{t('dataLoad.upload.shown', { shown: result.errors.length, total: result.errorsTotal })}</p>
        )}
        {result.reportUrl !== null && <CommandButton id="dataLoad.fetchReport" icon="download" args={{ studyId, id: result.uploadId }} />}
      </Callout>
      <div className="data-loading-errors">
        <HTMLTable compact striped data-testid="upload-errors">
          <thead>
            <tr>
              {sheets && <th>{t('dataLoad.upload.column.sheet')}</th>}
              <th>{t('dataLoad.upload.column.row')}</th>
              <th>{t('dataLoad.upload.column.column')}</th>
              <th>{t('dataLoad.upload.column.value')}</th>
              <th>{t('dataLoad.upload.column.message')}</th>
            </tr>
          </thead>
          <tbody>
            {result.errors.map((e, i) => (
              <tr key={`${e.sheet}-${e.row}-${e.column}-${i}`}>
                {sheets && <td>{e.sheet}</td>}
                <td>{e.row}</td>
                <td>{e.column}</td>
                <td className="data-loading-value">{e.value}</td>
                <td>{e.message}</td>
              </tr>
            ))}
          </tbody>
        </HTMLTable>
      </div>
    </div>
  )
}
