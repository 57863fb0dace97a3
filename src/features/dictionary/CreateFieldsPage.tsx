import { useMemo } from 'react'
import { IndicatorEditor } from './IndicatorEditor.tsx'
import { emptyForm } from './indicatorForm.ts'

/** SPEC §2 createFields: a new indicator (`?diseaseId=` preselects its disease). */
export default function CreateFieldsPage({ path = '' }: { path?: string }) {
  const initial = useMemo(() => {
    const d = Number(new URLSearchParams(path.split('?')[1] ?? '').get('diseaseId'))
    return emptyForm(Number.isInteger(d) && d > 0 ? d : null)
  }, [path])
  return (
    <div className="indicator-page">
      <IndicatorEditor initial={initial} />
    </div>
  )
}
