import { useMemo } from 'react'
import { paramsOf } from '../../../contract/screenPaths.ts'
import { IndicatorEditor } from './IndicatorEditor.tsx'
import { emptyForm } from './indicatorForm.ts'

/** SPEC §2 createFields: a new indicator (`?diseaseId=` preselects its disease). */
export default function CreateFieldsPage({ path = '' }: { path?: string }) {
  const initial = useMemo(() => {
    return emptyForm(paramsOf('createFields', path)?.diseaseId ?? null)
  }, [path])
  return (
    <div className="indicator-page">
      <IndicatorEditor initial={initial} />
    </div>
  )
}
