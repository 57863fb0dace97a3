import { NonIdealState, Spinner } from '@blueprintjs/core'
import { useLang, useT } from '../../i18n/useT.ts'
import { usePublish } from '../../state/focus.ts'
import { getIndicator } from './api/getIndicator.ts'
import { IndicatorEditor } from './IndicatorEditor.tsx'
import { formOf } from './indicatorForm.ts'
import { recordId } from '../../../contract/screenPaths.ts'
import { useApi } from '../../api/query.ts'
import { bilingual } from '../../../contract/bilingual.ts'

/** SPEC §2 fields: one indicator's form, `?id=` in the tab's path. */
export default function FieldsPage({ path = '' }: { path?: string }) {
  const t = useT()
  const id = recordId(path)
  const valid = id !== null
  const loaded = useApi(['indicators', id], async (signal) => {
    if (id === null) return null
    const indicator = await getIndicator(id, { signal })
    const dep =
      indicator.dependentFieldId === null
        ? null
        : await getIndicator(indicator.dependentFieldId, { signal, toast: false }).catch(() => null)
    return { indicator, dependent: dep && { id: dep.id, code: dep.code, nameZh: dep.nameZh, nameEn: dep.nameEn, options: dep.options } }
  })
  const lang = useLang()
  const shown = loaded.data?.indicator
  usePublish(
    path,
    shown ? { kind: 'indicator', id: shown.id, name: `${shown.code} ${bilingual(shown.nameZh, shown.nameEn, lang)}` } : undefined,
  )
  if (!valid) return <NonIdealState icon="search" title={t('indicator.notFound')} />
  if (loaded.data === undefined)
    return loaded.error ? <NonIdealState icon="error" title={t('message.loadError')} /> : <Spinner className="view-spinner" />
  if (loaded.data === null) return <NonIdealState icon="search" title={t('indicator.notFound')} />
  const { indicator, dependent } = loaded.data
  return (
    <div className="indicator-page">
      {/* A new version of the record (after a save elsewhere) starts the form afresh. */}
      <IndicatorEditor key={indicator.updatedAt} id={indicator.id} initial={formOf(indicator, dependent)} inUse={indicator.inUse} />
    </div>
  )
}
