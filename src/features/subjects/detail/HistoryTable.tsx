/**
 * The audit trail of a subject, of one record or of one field (data_audit, newest first, keyset
 * pages): when, who, from where, the action, the CRF (a subject's trail), the field as its
 * version asks it (and the sub-form row it is in), old and new value, the reason.
 */
import { useState } from 'react'
import { Button, HTMLTable, NonIdealState, Spinner } from '@blueprintjs/core'
import { bilingual } from '../../../../contract/bilingual.ts'
import type { HistoryEntry } from '../../../../contract/studyData.ts'
import type { FieldValue } from '../../../../contract/formValues.ts'
import { useApi } from '../../../api/query.ts'
import type { Lang } from '../../../i18n/index.ts'
import { useLang, useT } from '../../../i18n/useT.ts'
import { formatTime } from '../../../lib/time.ts'
import { getHistory } from './api/getHistory.ts'

const page = 50

const shown = (v: FieldValue | null) => (v === null ? '' : typeof v === 'string' ? v : v.join(' | '))

/** The field an entry names, and the sub-form row it is of: where that row stands now, or that it was deleted. */
function fieldOf(e: HistoryEntry, t: ReturnType<typeof useT>, lang: Lang): string {
  const name = bilingual(e.fieldNameZh, e.fieldNameEn, lang)
  if (e.rowId === null) return name
  if (e.rowNo !== null) return name ? t('dataEntry.history.inRow', [name, e.rowNo]) : t('dataEntry.history.row', [e.rowNo])
  return name ? t('dataEntry.history.inDeletedRow', [name]) : t('dataEntry.history.deletedRow')
}

export function HistoryTable({
  studyId,
  subjectId,
  recordId,
  field,
  rowId,
}: {
  studyId: number
  subjectId: number
  recordId?: number
  field?: number
  /** A field of a sub-form row: that row's history of it. */
  rowId?: number
}) {
  const t = useT()
  const lang = useLang()
  const [older, setOlder] = useState<HistoryEntry[]>([])
  const [before, setBefore] = useState<number | null>(null)
  const first = useApi(['subjectForms', 'history', studyId, subjectId, recordId, field, rowId], (signal) =>
    getHistory({ studyId, objectId: subjectId, recordId, field, rowId, limit: page }, { signal }),
  )
  if (!first.data) return first.loading ? <Spinner size={20} /> : <NonIdealState icon="error" title={t('message.loadError')} />
  const entries = [...first.data.entries, ...older]
  const next = older.length ? before : first.data.nextBefore
  const more = async () => {
    if (next === null) return
    const p = await getHistory({ studyId, objectId: subjectId, recordId, field, rowId, before: next, limit: page })
    setOlder((o) => [...o, ...p.entries])
    setBefore(p.nextBefore)
  }
  if (entries.length === 0) return <p className="bp6-text-muted">{t('dataEntry.history.empty')}</p>
  return (
    <>
      <HTMLTable compact striped className="entry-history" data-testid="history-table">
        <thead>
          <tr>
            <th>{t('dataEntry.history.at')}</th>
            <th>{t('dataEntry.history.user')}</th>
            <th>{t('dataEntry.history.ip')}</th>
            <th>{t('dataEntry.history.action')}</th>
            {recordId === undefined && <th>{t('dataEntry.history.form')}</th>}
            {field === undefined && <th>{t('dataEntry.history.field')}</th>}
            <th>{t('dataEntry.history.old')}</th>
            <th>{t('dataEntry.history.new')}</th>
            <th>{t('dataEntry.history.reason')}</th>
          </tr>
        </thead>
        <tbody>
          {entries.map((e) => (
            <tr key={e.id} data-testid="history-row" data-action={e.action}>
              <td>{formatTime(e.at, undefined, lang)}</td>
              <td>{e.username}</td>
              <td>{e.ip}</td>
              <td>{t(`dataEntry.history.actions.${e.action}`)}</td>
              {recordId === undefined && <td>{e.formName}</td>}
              {field === undefined && <td data-testid="history-field">{fieldOf(e, t, lang)}</td>}
              <td>{shown(e.oldValue)}</td>
              <td>{shown(e.newValue)}</td>
              <td>{e.reason}</td>
            </tr>
          ))}
        </tbody>
      </HTMLTable>
      {next !== null && <Button variant="minimal" icon="history" text={t('dataEntry.history.more')} onClick={() => void more()} />}
    </>
  )
}
