import { useState } from 'react'
import { Callout, Checkbox, FormGroup, RadioGroup, Spinner, Switch } from '@blueprintjs/core'
import { HTMLSelect } from '../../ui/HTMLSelect.tsx'
import { bilingual } from '../../../contract/bilingual.ts'
import { downloadFormats, type DownloadFormat, type LoadableCrf } from '../../../contract/dataLoader.ts'
import { useApi } from '../../api/query.ts'
import { useLang, useT } from '../../i18n/useT.ts'
import { BusyButton } from '../../ui/BusyButton.tsx'
import { useCommandHost } from '../../ui/commandHost.tsx'
import { getVersion } from './api/getVersion.ts'
import { getVisitPlan } from './api/getVisitPlan.ts'
import { listCenters } from './api/listCenters.ts'
import { listQueues } from './api/listQueues.ts'
import { CrfChooser, inOrder } from './CrfChooser.tsx'

const langs = ['zh', 'en'] as const
type Lang = (typeof langs)[number]

/** Ids chosen from a list of checkboxes; none chosen means all. */
function Choice({
  label,
  items,
  chosen,
  onChange,
  testId,
}: {
  label: string
  items: readonly { id: number; label: string }[]
  chosen: ReadonlySet<number>
  onChange: (next: Set<number>) => void
  testId: string
}) {
  const t = useT()
  if (items.length === 0) return null
  return (
    <fieldset className="data-loading-choice" data-testid={testId}>
      <legend>{label}</legend>
      <span className="data-loading-note">{t('dataLoad.download.allHint')}</span>
      {items.map((item) => (
        <Checkbox
          key={item.id}
          label={item.label}
          checked={chosen.has(item.id)}
          onChange={() => {
            const next = new Set(chosen)
            if (!next.delete(item.id)) next.add(item.id)
            onChange(next)
          }}
        />
      ))}
    </fieldset>
  )
}

/**
 * What to download: CRFs (some of their fields if wished), queues, centers and visits (none
 * chosen: all the caller's grants allow), the format and the label language.
 */
export function DownloadPanel({ studyId, crfs, loading }: { studyId: number; crfs: readonly LoadableCrf[]; loading: boolean }) {
  const t = useT()
  const lang = useLang()
  const host = useCommandHost()
  const [templates, setTemplates] = useState<Set<number>>(new Set())
  const [someFields, setSomeFields] = useState(false)
  const [fields, setFields] = useState<Set<number>>(new Set())
  const [queues, setQueues] = useState<Set<number>>(new Set())
  const [centers, setCenters] = useState<Set<number>>(new Set())
  const [visits, setVisits] = useState<Set<number>>(new Set())
  const [format, setFormat] = useState<DownloadFormat>('xlsx')
  const [labels, setLabels] = useState<Lang>(lang)
  const [busy, setBusy] = useState(false)
  const templateIds = inOrder(crfs, templates)
  const queueList = useApi(['dataLoad', 'queues', studyId], (signal) => listQueues(studyId, { signal, toast: false }))
  const centerList = useApi(['dataLoad', 'centers', studyId], (signal) => listCenters(studyId, { signal, toast: false }))
  const plan = useApi(['dataLoad', 'visits', studyId], (signal) => getVisitPlan(studyId, { signal, toast: false }))
  const chosenCrfs = crfs.filter((c) => templates.has(c.templateId))
  const versions = useApi(
    ['dataLoad', 'fields', studyId, chosenCrfs.map((c) => `${c.templateId}:${c.version}`).join(',')],
    (signal) => Promise.all(chosenCrfs.map((c) => getVersion(c.templateId, c.version, { signal, toast: false }))),
    { enabled: someFields && chosenCrfs.length > 0 },
  )
  const fieldItems = (versions.data ?? []).flatMap((v) => {
    const crf = crfs.find((c) => c.templateId === v.templateId)
    return v.indicators.map((f) => ({ id: f.id, label: `${crf?.name ?? ''} · ${bilingual(f.nameZh, f.nameEn, lang)} (${f.code})` }))
  })
  const fieldIds = someFields ? [...fields].filter((id) => fieldItems.some((f) => f.id === id)) : []

  const download = async () => {
    setBusy(true)
    const list = (s: ReadonlySet<number>) => (s.size > 0 ? [...s] : undefined)
    await host.run('dataLoad.download', 'button', {
      studyId,
      choice: {
        format,
        templateIds,
        fieldIds: fieldIds.length > 0 ? fieldIds : undefined,
        queueIds: list(queues),
        centerIds: list(centers),
        visitIds: list(visits),
        lang: labels,
      },
    })
    setBusy(false)
  }

  return (
    <div className="data-loading-panel" data-testid="data-loading-download">
      <CrfChooser crfs={crfs} loading={loading} chosen={templates} onChange={setTemplates} testId="download-crfs" />
      <Switch
        checked={someFields}
        label={t('dataLoad.download.fields')}
        disabled={templateIds.length === 0}
        data-testid="download-some-fields"
        onChange={(e) => setSomeFields(e.currentTarget.checked)}
      />
      {someFields &&
        templateIds.length > 0 &&
        (versions.loading ? (
          <Spinner size={20} />
        ) : versions.error ? (
          <Callout intent="warning">{t('dataLoad.download.fieldsUnavailable')}</Callout>
        ) : (
          <Choice label={t('dataLoad.download.fields')} items={fieldItems} chosen={fields} onChange={setFields} testId="download-fields" />
        ))}
      <div className="data-loading-filters">
        <Choice
          label={t('dataLoad.download.queues')}
          items={(queueList.data ?? []).map((q) => ({ id: q.id, label: q.name }))}
          chosen={queues}
          onChange={setQueues}
          testId="download-queues"
        />
        <Choice
          label={t('dataLoad.download.centers')}
          items={(centerList.data ?? []).map((c) => ({ id: c.id, label: `${bilingual(c.nameZh, c.nameEn, lang)} (${c.code})` }))}
          chosen={centers}
          onChange={setCenters}
          testId="download-centers"
        />
        <Choice
          label={t('dataLoad.download.visits')}
          items={(plan.data?.visits ?? []).map((v) => ({ id: v.id, label: v.name }))}
          chosen={visits}
          onChange={setVisits}
          testId="download-visits"
        />
      </div>
      <div className="data-loading-actions">
        <RadioGroup
          inline
          label={t('dataLoad.download.format')}
          selectedValue={format}
          onChange={(e) => setFormat(e.currentTarget.value as DownloadFormat)}
          options={downloadFormats.map((f) => ({ value: f, label: t(`dataLoad.download.formats.${f}`) }))}
        />
        <FormGroup inline label={t('dataLoad.lang')} labelFor="download-lang">
          <HTMLSelect
            id="download-lang"
            // A CSV's header is the codes alone: no labels to put in a language.
            disabled={format === 'csv'}
            title={format === 'csv' ? t('dataLoad.download.csvCodesOnly') : undefined}
            value={labels}
            onChange={(e) => setLabels(e.currentTarget.value as Lang)}
            options={langs.map((l) => ({ value: l, label: t(`dataLoad.langs.${l}`) }))}
          />
        </FormGroup>
        {templateIds.length === 0 && <span className="data-loading-note">{t('dataLoad.download.chooseOne')}</span>}
        <BusyButton
          intent="primary"
          icon="download"
          text={t('dataLoad.download.download')}
          disabled={templateIds.length === 0}
          loading={busy}
          data-testid="download-data"
          onClick={() => void download()}
        />
      </div>
    </div>
  )
}
