import { useState } from 'react'
import { Button, Checkbox, DialogBody, DialogFooter, NonIdealState, Spinner } from '@blueprintjs/core'
import { Dialog } from '../../ui/Dialog.tsx'
import { listLimits, type DisplayField } from '../../../contract/subjectList.ts'
import { bilingual } from '../../../contract/bilingual.ts'
import { useApi } from '../../api/query.ts'
import { useLang, useT } from '../../i18n/useT.ts'
import { useCommandHost } from '../../ui/commandHost.tsx'
import { displayFields } from './listApi.ts'
import { BusyButton } from '../../ui/BusyButton.tsx'

/** SPEC getDisplayFieldList / saveDisplayFieldInfo: which indicators are the list's columns, in order. */
export function ColumnChooser({ studyId, onClose }: { studyId: number; onClose: () => void }) {
  const t = useT()
  const lang = useLang()
  const host = useCommandHost()
  const fields = useApi(['subjects', 'displayFields', studyId], (signal) => displayFields(studyId, { signal }))
  const [chosen, setChosen] = useState<number[] | null>(null)
  const [busy, setBusy] = useState(false)
  const all = fields.data ?? []
  const picked =
    chosen ??
    all
      .filter((f) => f.position !== null)
      .sort((a, b) => (a.position ?? 0) - (b.position ?? 0))
      .map((f) => f.indicatorId)
  const byId = new Map(all.map((f) => [f.indicatorId, f]))
  const label = (f: DisplayField) => `${bilingual(f.nameZh, f.nameEn, lang)} (${f.code})`
  // Chosen ones first in their order, then the rest in form order.
  const shown = [...picked.flatMap((id) => byId.get(id) ?? []), ...all.filter((f) => !picked.includes(f.indicatorId))]

  const toggle = (id: number, on: boolean) => setChosen(on ? [...picked, id] : picked.filter((x) => x !== id))
  const move = (id: number, by: -1 | 1) => {
    const i = picked.indexOf(id)
    const j = i + by
    if (i < 0 || j < 0 || j >= picked.length) return
    const next = [...picked]
    ;[next[i], next[j]] = [next[j]!, next[i]!]
    setChosen(next)
  }
  const save = async () => {
    setBusy(true)
    const r = await host.run('subjectList.saveColumns', 'button', { studyId, indicatorIds: picked })
    setBusy(false)
    if (r.ok) onClose()
  }
  const tooMany = picked.length > listLimits.displayFields

  return (
    <Dialog isOpen onClose={onClose} title={t('subjectList.columns.title')} data-testid="subject-columns-dialog">
      <DialogBody>
        {fields.data === undefined ? (
          <Spinner size={24} />
        ) : all.length === 0 ? (
          <NonIdealState icon="th" description={t('subjectList.columns.none')} />
        ) : (
          <>
            <p>{t('subjectList.columns.hint', [listLimits.displayFields])}</p>
            <ul className="subject-columns" aria-label={t('subjectList.columns.title')}>
              {shown.map((f, i) => {
                const on = picked.includes(f.indicatorId)
                return (
                  <li key={f.indicatorId}>
                    <Checkbox
                      // The first indicator takes the focus once the list arrives, not the dialog's frame.
                      autoFocus={i === 0}
                      inline
                      checked={on}
                      label={label(f)}
                      data-testid={`column-${f.code}`}
                      onChange={(e) => toggle(f.indicatorId, e.currentTarget.checked)}
                    />
                    <span className="subject-columns-form">{f.templateName}</span>
                    {on && (
                      <>
                        <Button
                          size="small"
                          variant="minimal"
                          icon="arrow-up"
                          aria-label={t('subjectList.columns.moveUp', [f.code])}
                          onClick={() => move(f.indicatorId, -1)}
                        />
                        <Button
                          size="small"
                          variant="minimal"
                          icon="arrow-down"
                          aria-label={t('subjectList.columns.moveDown', [f.code])}
                          onClick={() => move(f.indicatorId, 1)}
                        />
                      </>
                    )}
                  </li>
                )
              })}
            </ul>
            {tooMany && <p role="alert">{t('subjectList.columns.tooMany', [listLimits.displayFields])}</p>}
          </>
        )}
      </DialogBody>
      <DialogFooter
        actions={
          <>
            <Button text={t('common.cancel')} onClick={onClose} />
            <BusyButton
              intent="primary"
              text={t('common.save')}
              loading={busy}
              disabled={tooMany || fields.data === undefined}
              data-testid="subject-columns-save"
              onClick={() => void save()}
            />
          </>
        }
      />
    </Dialog>
  )
}
