/**
 * What to compare the open form with: the same form of another research object (found by its
 * number), or another saved instance of this form of this subject (another visit). The choice
 * opens beside this pane and the two are paired.
 */
import { useRef, useState } from 'react'
import { Button, DialogBody, FormGroup, H5, InputGroup, Menu, MenuItem } from '@blueprintjs/core'
import { Dialog } from '../../../ui/Dialog.tsx'
import type { RecordHead } from '../../../../contract/studyData.ts'
import type { SubjectRow } from '../../../../contract/subjectList.ts'
import { useLang, useT } from '../../../i18n/useT.ts'
import { formatTime } from '../../../lib/time.ts'
import { findSubjects } from './api/findSubjects.ts'

export interface CompareTarget {
  subjectId: number
  recordId?: number
}

export function CompareDialog({
  studyId,
  subjectId,
  records,
  currentRecordId,
  onPick,
  onClose,
}: {
  studyId: number
  subjectId: number
  /** The saved instances of the open form. */
  records: readonly RecordHead[]
  currentRecordId: number | null
  onPick(target: CompareTarget): void
  onClose(): void
}) {
  const t = useT()
  const lang = useLang()
  const [q, setQ] = useState('')
  const [found, setFound] = useState<SubjectRow[] | null>(null)
  const others = records.filter((r) => r.id !== currentRecordId)
  // Only the answer to the latest text counts: typing fast must not show an older search's subjects.
  const latest = useRef(0)
  const search = async (text: string) => {
    setQ(text)
    const asked = ++latest.current
    if (text.trim() === '') return setFound(null)
    const page = await findSubjects({ studyId, q: text.trim(), sort: 'subjectNo', order: 'asc', limit: 10 })
    if (asked === latest.current) setFound(page.rows.filter((r) => r.id !== subjectId))
  }
  return (
    <Dialog isOpen onClose={onClose} title={t('dataEntry.compare.title')} data-testid="compare-dialog">
      <DialogBody>
        <H5>{t('dataEntry.compare.subject')}</H5>
        <FormGroup label={t('dataEntry.compare.search')} labelFor="compare-subject">
          <InputGroup
            id="compare-subject"
            autoFocus
            value={q}
            onValueChange={(v) => void search(v)}
            onKeyDown={(e) => {
              const first = found?.[0]
              if (e.key === 'Enter' && first) onPick({ subjectId: first.id })
            }}
            data-testid="compare-subject"
          />
        </FormGroup>
        {found && found.length === 0 && <p className="bp6-text-muted">{t('dataEntry.compare.noMatch')}</p>}
        {found && found.length > 0 && (
          <Menu data-testid="compare-subjects">
            {found.map((s) => (
              <MenuItem key={s.id} text={s.subjectNo} label={s.centerName} onClick={() => onPick({ subjectId: s.id })} />
            ))}
          </Menu>
        )}
        <H5>{t('dataEntry.compare.instance')}</H5>
        {others.length === 0 ? (
          <p className="bp6-text-muted">{t('dataEntry.compare.noInstance')}</p>
        ) : (
          <div className="entry-compare-instances">
            {others.map((r, i) => (
              <Button
                key={r.id}
                variant="outlined"
                text={`${t('dataEntry.forms.instance', [i + 1])} · ${formatTime(r.updatedAt, undefined, lang) ?? ''}`}
                onClick={() => onPick({ subjectId, recordId: r.id })}
              />
            ))}
          </div>
        )}
      </DialogBody>
    </Dialog>
  )
}
