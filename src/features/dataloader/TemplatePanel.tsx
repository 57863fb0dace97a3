import { useState } from 'react'
import { Callout, FormGroup } from '@blueprintjs/core'
import { HTMLSelect } from '../../ui/HTMLSelect.tsx'
import type { LoadableCrf } from '../../../contract/dataLoader.ts'
import { useLang, useT } from '../../i18n/useT.ts'
import { BusyButton } from '../../ui/BusyButton.tsx'
import { useCommandHost } from '../../ui/commandHost.tsx'
import { CrfChooser, inOrder } from './CrfChooser.tsx'

const langs = ['zh', 'en'] as const

/** Choose CRFs and the header language; one workbook holds them all (each sub form its own sheet). */
export function TemplatePanel({ studyId, crfs, loading }: { studyId: number; crfs: readonly LoadableCrf[]; loading: boolean }) {
  const t = useT()
  const host = useCommandHost()
  const [chosen, setChosen] = useState<Set<number>>(new Set())
  const [lang, setLang] = useState<(typeof langs)[number]>(useLang())
  const [busy, setBusy] = useState(false)
  const templateIds = inOrder(crfs, chosen)

  const download = async () => {
    setBusy(true)
    await host.run('dataLoad.downloadTemplate', 'button', { studyId, templateIds, lang })
    setBusy(false)
  }

  return (
    <div className="data-loading-panel" data-testid="data-loading-template">
      <Callout icon="info-sign">{t('dataLoad.template.hint')}</Callout>
      <CrfChooser crfs={crfs} loading={loading} chosen={chosen} onChange={setChosen} testId="template-crfs" />
      <div className="data-loading-actions">
        <FormGroup inline label={t('dataLoad.lang')} labelFor="template-lang">
          <HTMLSelect
            id="template-lang"
            value={lang}
            onChange={(e) => setLang(e.currentTarget.value as (typeof langs)[number])}
            options={langs.map((l) => ({ value: l, label: t(`dataLoad.langs.${l}`) }))}
          />
        </FormGroup>
        <span className="data-loading-note">
          {templateIds.length === 0 ? t('dataLoad.template.chooseOne') : t('dataLoad.template.chosen', { count: templateIds.length })}
        </span>
        <BusyButton
          intent="primary"
          icon="download"
          text={t('dataLoad.template.download')}
          disabled={templateIds.length === 0}
          loading={busy}
          data-testid="template-download"
          onClick={() => void download()}
        />
      </div>
    </div>
  )
}
