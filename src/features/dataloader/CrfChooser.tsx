import { Checkbox, HTMLTable, NonIdealState, Spinner } from '@blueprintjs/core'
import type { LoadableCrf } from '../../../contract/dataLoader.ts'
import { useT } from '../../i18n/useT.ts'

/** The project's loadable CRFs with a checkbox each (and one for all), as templates and downloads choose them. */
export function CrfChooser({
  crfs,
  loading,
  chosen,
  onChange,
  testId,
}: {
  crfs: readonly LoadableCrf[]
  loading: boolean
  chosen: ReadonlySet<number>
  onChange: (next: Set<number>) => void
  testId: string
}) {
  const t = useT()
  if (crfs.length === 0) return loading ? <Spinner size={20} /> : <NonIdealState icon="th-disconnect" title={t('dataLoad.crf.none')} />
  const all = crfs.every((c) => chosen.has(c.templateId))
  const toggle = (id: number) => {
    const next = new Set(chosen)
    if (!next.delete(id)) next.add(id)
    onChange(next)
  }
  return (
    <HTMLTable compact striped className="data-loading-crfs" data-testid={testId}>
      <thead>
        <tr>
          <th>
            <Checkbox
              className="data-loading-check"
              checked={all}
              indeterminate={!all && chosen.size > 0}
              aria-label={t('dataLoad.crf.all')}
              data-testid={`${testId}-all`}
              onChange={() => onChange(all ? new Set() : new Set(crfs.map((c) => c.templateId)))}
            />
          </th>
          <th>{t('dataLoad.crf.name')}</th>
          <th>{t('dataLoad.crf.version')}</th>
          <th>{t('dataLoad.crf.mode')}</th>
          <th>{t('dataLoad.crf.fields')}</th>
          <th>{t('dataLoad.crf.subForms')}</th>
        </tr>
      </thead>
      <tbody>
        {crfs.map((c) => (
          <tr key={c.templateId} data-testid={`${testId}-${c.templateId}`}>
            <td>
              <Checkbox
                className="data-loading-check"
                checked={chosen.has(c.templateId)}
                aria-label={c.name}
                onChange={() => toggle(c.templateId)}
              />
            </td>
            <td>{c.name}</td>
            <td>{t('dataLoad.crf.versionOf', [c.version])}</td>
            <td>{t(`dataLoad.crf.modes.${c.mode}`)}</td>
            <td>{c.fields}</td>
            <td>{c.subForms}</td>
          </tr>
        ))}
      </tbody>
    </HTMLTable>
  )
}

/** The chosen ids in the order the project lists its CRFs. */
export const inOrder = (crfs: readonly LoadableCrf[], chosen: ReadonlySet<number>) =>
  crfs.filter((c) => chosen.has(c.templateId)).map((c) => c.templateId)
