/**
 * A stale save (409): the user's values beside the ones stored now, field by field, the
 * differing ones first; each is kept or taken over, and the result is saved again from the
 * stored rev (onResolve). Nothing is chosen silently: every differing field starts at "keep mine"
 * and shows both values.
 */
import { useMemo, useState } from 'react'
import { Button, ButtonGroup, DialogBody, DialogFooter, HTMLTable, Radio, RadioGroup, Tag } from '@blueprintjs/core'
import { Dialog } from '../../../ui/Dialog.tsx'
import type { SaveConflict } from '../../../../contract/studyData.ts'
import { labelOf, type FieldValue, type FormData, type FormDefinition } from '../../../../contract/formValues.ts'
import { choiceLabel } from '../../../../contract/indicatorRules.ts'
import type { Indicator } from '../../../../contract/dictionary.ts'
import { formatTime } from '../../../lib/time.ts'
import { useLang, useT } from '../../../i18n/useT.ts'
import { conflictItems, mergeChoices, theirsAsForm, type Choices, type Side } from './conflictMerge.ts'

export interface ConflictDialogProps {
  definition: FormDefinition
  mine: FormData
  theirs: SaveConflict['current']
  onResolve(merged: FormData, rev: number): void
  onClose(): void
}

export function ConflictDialog({ definition, mine, theirs, onResolve, onClose }: ConflictDialogProps) {
  const t = useT()
  const [choices, setChoices] = useState<Choices>({})
  const stored = useMemo(() => theirsAsForm(theirs), [theirs])
  return (
    <Dialog isOpen onClose={onClose} title={t('offline.conflict.title')} style={{ width: 'min(960px, 95vw)' }}>
      <DialogBody>
        <ConflictChoices definition={definition} mine={mine} theirs={theirs} choices={choices} onChange={setChoices} />
      </DialogBody>
      <DialogFooter
        actions={
          <>
            <Button text={t('common.cancel')} onClick={onClose} />
            <Button
              intent="primary"
              text={t('offline.conflict.apply')}
              data-testid="conflict-apply"
              onClick={() => onResolve(mergeChoices(definition, mine, stored, choices), theirs.record?.rev ?? 0)}
            />
          </>
        }
      />
    </Dialog>
  )
}

/** The comparison table and its choices (the dialog's body; rendered on its own in tests). */
export function ConflictChoices({
  definition,
  mine,
  theirs,
  choices,
  onChange,
}: {
  definition: FormDefinition
  mine: FormData
  theirs: SaveConflict['current']
  choices: Choices
  onChange(next: Choices): void
}) {
  const t = useT()
  const lang = useLang()
  const { fields, sections } = useMemo(() => conflictItems(definition, mine, theirsAsForm(theirs)), [definition, mine, theirs])
  const differing = [...fields, ...sections].filter((x) => x.differs)
  const all = (side: Side) => onChange(Object.fromEntries(differing.map((x) => [x.key, side])))
  const at = theirs.record ? formatTime(theirs.record.updatedAt, undefined, lang) : null
  const show = (f: Indicator, v: FieldValue | undefined) => shownValue(f, v, lang) || t('offline.conflict.empty')

  // The first differing item's choice takes the focus as the dialog opens: ← → choose, Tab goes on to the next.
  const firstKey = differing[0]?.key
  const choice = (key: string, label: string) => {
    const chosen = choices[key] ?? 'mine'
    return (
      <RadioGroup
        inline
        name={`conflict-${key}`}
        aria-label={label}
        selectedValue={chosen}
        onChange={(e) => onChange({ ...choices, [key]: e.currentTarget.value as Side })}
      >
        {(['mine', 'theirs'] as const).map((side) => (
          <Radio
            key={side}
            value={side}
            label={t(side === 'mine' ? 'offline.conflict.keepMine' : 'offline.conflict.takeTheirs')}
            data-testid={`conflict-${key}-${side}`}
            autoFocus={key === firstKey && side === chosen}
          />
        ))}
      </RadioGroup>
    )
  }

  return (
    <div data-testid="conflict-choices">
      <p>{theirs.record && at ? t('offline.conflict.intro', [theirs.record.updatedBy, at]) : t('offline.conflict.introUnknown')}</p>
      <p>
        <Tag intent="danger" minimal>
          {t('offline.conflict.differs', [differing.length])}
        </Tag>{' '}
        <ButtonGroup>
          <Button small text={t('offline.conflict.keepAllMine')} onClick={() => all('mine')} />
          <Button small text={t('offline.conflict.takeAllTheirs')} onClick={() => all('theirs')} />
        </ButtonGroup>
      </p>
      <HTMLTable compact striped style={{ width: '100%' }}>
        <thead>
          <tr>
            <th>{t('offline.conflict.field')}</th>
            <th>{t('offline.conflict.mine')}</th>
            <th>{t('offline.conflict.theirs')}</th>
            <th>{t('offline.conflict.choice')}</th>
          </tr>
        </thead>
        <tbody>
          {fields.map((f) => {
            const label = labelOf(f.indicator, lang)
            return (
              <tr key={f.key} data-testid={`conflict-${f.key}`} data-differs={f.differs}>
                <th scope="row">{label}</th>
                <td>{show(f.indicator, f.mine)}</td>
                <td>{show(f.indicator, f.theirs)}</td>
                <td>{f.differs ? choice(f.key, label) : t('offline.conflict.same')}</td>
              </tr>
            )
          })}
          {sections.map((s) => {
            const label = t('offline.conflict.subForm', [s.title])
            return (
              <tr key={s.key} data-testid={`conflict-${s.key}`} data-differs={s.differs}>
                <th scope="row">{label}</th>
                <td>{t('offline.conflict.rows', [s.mine.length])}</td>
                <td>{t('offline.conflict.rows', [s.theirs.length])}</td>
                <td>{s.differs ? choice(s.key, label) : t('offline.conflict.same')}</td>
              </tr>
            )
          })}
        </tbody>
      </HTMLTable>
    </div>
  )
}

/** A value as the user reads it: the labels of chosen answers, else the text. */
function shownValue(f: Indicator, v: FieldValue | undefined, lang: 'zh' | 'en'): string {
  if (v === undefined) return ''
  const codes = typeof v === 'string' ? [v] : v
  return codes
    .filter((c) => c !== '')
    .map((c) => {
      const choice = f.options.find((o) => o.code === c)
      return choice ? choiceLabel(choice, lang) : c
    })
    .join(', ')
}
