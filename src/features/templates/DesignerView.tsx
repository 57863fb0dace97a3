import { memo, useEffect, useMemo, useRef, useState, type DragEvent, type KeyboardEvent } from 'react'
import {
  Alert,
  Button,
  Callout,
  Checkbox,
  Classes,
  DialogBody,
  H4,
  Icon,
  InputGroup,
  NonIdealState,
  Spinner,
  Switch,
  Tag,
} from '@blueprintjs/core'
import { Dialog } from '../../ui/Dialog.tsx'
import { useSnapshot } from 'valtio'
import { maxSectionTitle, type LayoutItem, type LayoutSection, type TemplateKind } from '../../../contract/crf.ts'
import type { Indicator } from '../../../contract/dictionary.ts'
import { choiceLabel } from '../../../contract/indicatorRules.ts'
import { useLang, useT } from '../../i18n/useT.ts'
import { BusyButton } from '../../ui/BusyButton.tsx'
import { CommandButton } from '../../ui/CommandButton.tsx'
import { useCommandHost } from '../../ui/commandHost.tsx'
import { splitBudget, useProgressiveLimit } from '../../ui/progressive.ts'
import { AddIndicatorsPicker } from './AddIndicatorsPicker.tsx'
import {
  addIndicators,
  closeDesigner,
  designerActions,
  designers,
  edit,
  isDirty,
  loadDesigner,
  openDesigner,
  select,
  setAddOpen,
  type DesignerState,
} from './designerStore.ts'
import { designer } from '../../../commands/templates.ts'
import { provide, useArrivalFocus, usePublish } from '../../state/focus.ts'
import { kindTitle, versionText } from './labels.ts'
import * as ops from './layoutOps.ts'
import { recordId } from '../../../contract/screenPaths.ts'
import { useReloadKey } from '../../api/query.ts'
import { bilingual } from '../../../contract/bilingual.ts'

/**
 * The layout designer (edit-crf-temp / edit-subject-temp ?id=) and, with mode 'assign', the field
 * assignment (assignCRFFields / assignSubjectFields ?id=) with the indicator picker beside it.
 * Sections hold items (indicators); a repeating section is a sub form. Items are ordered by
 * drag, by their ↑ ↓ buttons, and by Alt+↑ / Alt+↓ (the move commands). A form of thousands of
 * fields mounts its items a slice per task (ui/progressive.ts), so it opens without freezing.
 */
export function DesignerView({ kind, path, mode }: { kind: TemplateKind; path: string; mode: 'design' | 'assign' }) {
  const t = useT()
  const id = recordId(path)
  const version = useReloadKey('templates')
  const first = useRef(true)

  useEffect(() => {
    if (id === null) return
    openDesigner(path, id, kind)
    return () => closeDesigner(path)
  }, [path, id, kind])

  // Someone changed templates (a save elsewhere, a publication): reload, keeping unsaved edits.
  useEffect(() => {
    if (first.current) {
      first.current = false
      return
    }
    void loadDesigner(path)
  }, [version, path])

  const snap = useSnapshot(designers)[path]
  const name = snap?.template?.name
  usePublish(path, id !== null && name !== undefined ? { kind, id, name } : undefined, [provide(designer, () => designerActions(path))])
  if (id === null)
    return <NonIdealState icon="document" title={t('template.noTemplate')} action={<CommandButton id="go.crfManager" icon="document" />} />
  if (!snap || snap.loading) return <Spinner className="view-spinner" />
  if (snap.failed)
    return (
      <NonIdealState
        icon="error"
        title={t('message.loadError')}
        action={<Button text={t('template.retry')} onClick={() => void loadDesigner(path)} />}
      />
    )
  return <Designer path={path} d={snap as DesignerState} mode={mode} />
}

function Designer({ path, d, mode }: { path: string; d: DesignerState; mode: 'design' | 'assign' }) {
  const t = useT()
  const root = useRef<HTMLDivElement>(null)
  const [removing, setRemoving] = useState<string | null>(null)
  const dirty = isDirty(d)
  const placed = ops.placedIds(d.sections)
  const counts = d.sections.map((s) => s.items.length)
  const budgets = splitBudget(counts, useProgressiveLimit(counts.reduce((a, b) => a + b, 0)))

  // After a keyboard move or an add, the selected item keeps (or gets) the focus.
  useEffect(() => {
    if (d.focusSeq === 0 || d.selected === null) return
    root.current?.querySelector<HTMLElement>(`[data-item-id="${d.selected}"]`)?.focus()
  }, [d.focusSeq, d.selected])

  useArrivalFocus(path, root, true, ['h4'])

  // A new section, or the section-title command: its title input takes the focus.
  useEffect(() => {
    if (d.titleFocus) root.current?.querySelector<HTMLElement>(`[data-testid="designer-section-${d.titleFocus.key}"] input`)?.focus()
  }, [d.titleFocus?.seq])

  const add = (list: Indicator[]) => {
    addIndicators(path, list)
    setAddOpen(path, false)
  }

  const g = d.generate
  return (
    <div className="designer" ref={root} data-testid="designer" data-dirty={dirty}>
      <div className="designer-head">
        <H4>
          {d.template?.name}
          <Tag minimal className="designer-kind">
            {kindTitle(t, d.kind)}
          </Tag>
        </H4>
        <div className="designer-state" data-testid="designer-state">
          <span>{versionText(t, d.template?.draft ?? null, d.template?.published ?? null)}</span>
          {g && (
            <Tag minimal intent={g.generated ? 'success' : 'none'} data-testid="generate-state">
              {g.generated ? t('template.state.published', [g.version ?? '']) : t('template.state.never')}
            </Tag>
          )}
          {g?.pending && (
            <Tag minimal intent="warning" data-testid="pending-state">
              {t('template.state.pending')}
            </Tag>
          )}
          {dirty && (
            <Tag minimal intent="danger" data-testid="dirty-state">
              {t('template.state.unsaved')}
            </Tag>
          )}
        </div>
      </div>
      <div className="designer-toolbar">
        <CommandButton id="templates.addSection" icon="new-object" />
        {mode === 'design' && <CommandButton id="templates.addIndicators" icon="add" />}
        <CommandButton id="templates.saveLayout" icon="floppy-disk" intent={dirty ? 'primary' : 'none'} loading={d.saving} />
        <CommandButton id="templates.preview" icon="eye-open" />
        <CommandButton id="templates.publish" icon="cloud-upload" intent="success" />
      </div>
      <div className={mode === 'assign' ? 'designer-body assign' : 'designer-body'}>
        {mode === 'assign' && (
          <div className="designer-picker">
            <AddIndicatorsPicker placed={placed} onAdd={add} />
          </div>
        )}
        <div className="designer-sections" data-testid="designer-sections" aria-busy={budgets.some((b, i) => b < (counts[i] ?? 0))}>
          {d.sections.length === 0 && (
            <Callout icon="info-sign" className="designer-empty">
              {t('template.designerEmpty')}
            </Callout>
          )}
          {d.sections.map((s, i) => (
            <SectionCard
              key={s.key}
              path={path}
              d={d}
              placed={placed}
              budget={budgets[i] ?? 0}
              section={s as LayoutSection}
              index={i}
              onRemove={() => (s.items.length > 0 ? setRemoving(s.key) : edit(path, (x) => ops.removeSection(x, s.key)))}
            />
          ))}
        </div>
      </div>
      <Dialog
        isOpen={d.addOpen}
        title={t('template.command.addIndicators')}
        onClose={() => setAddOpen(path, false)}
        className="indicator-picker-dialog"
      >
        <DialogBody>
          {d.addOpen && <AddIndicatorsPicker placed={placed} onAdd={add} onCancel={() => setAddOpen(path, false)} autoFocus />}
        </DialogBody>
      </Dialog>
      <Alert
        isOpen={removing !== null}
        intent="danger"
        icon="trash"
        confirmButtonText={t('common.delete')}
        cancelButtonText={t('common.cancel')}
        onConfirm={() => {
          if (removing) edit(path, (x) => ops.removeSection(x, removing))
          setRemoving(null)
        }}
        onCancel={() => setRemoving(null)}
        canEscapeKeyCancel
      >
        <p>{t('template.removeSectionConfirm')}</p>
      </Alert>
    </div>
  )
}

/** Where a drag goes: before or after the row under the pointer. */
function dropIndex(e: DragEvent<HTMLElement>, index: number): number {
  const box = e.currentTarget.getBoundingClientRect()
  return e.clientY > box.top + box.height / 2 ? index + 1 : index
}

function SectionCard({
  path,
  d,
  placed,
  budget,
  section: s,
  index,
  onRemove,
}: {
  path: string
  d: DesignerState
  /** Indicators on the form, for the dependent-field warning. */
  placed: ReadonlySet<number>
  /** How many of the section's items to mount yet. */
  budget: number
  section: LayoutSection
  index: number
  onRemove(): void
}) {
  const t = useT()
  const lang = useLang()
  const host = useCommandHost()
  const [over, setOver] = useState<number | null>(null)
  const last = d.sections.length - 1

  // One set of handlers for every row, reading the store when they run: a row re-renders only
  // when what it shows changes, which keeps a form of thousands of items responsive.
  const rowActions = useMemo<RowActions>(() => {
    const sections = () => designers[path]?.sections ?? []
    return {
      setOver,
      drop(e, at) {
        e.preventDefault()
        setOver(null)
        const id = Number(e.dataTransfer.getData('text/plain'))
        const from = ops.find(sections(), id)
        if (!from) return
        // moveTo counts places without the moved item.
        const to = from.section === index && from.index < at ? at - 1 : at
        edit(path, (x) => ops.moveTo(x, id, { section: index, index: to }))
        select(path, id)
      },
      key(e, id) {
        if (e.target !== e.currentTarget || e.ctrlKey || e.metaKey) return
        if ((e.key === 'ArrowDown' || e.key === 'ArrowUp') && !e.altKey) {
          e.preventDefault()
          const next = ops.neighbour(sections(), id, e.key === 'ArrowDown' ? 1 : -1)
          if (next !== null) select(path, next, true)
        } else if (e.key === 'Delete' && !e.altKey) {
          e.preventDefault()
          const next = ops.neighbour(sections(), id, 1) ?? ops.neighbour(sections(), id, -1)
          edit(path, (x) => ops.removeItem(x, id))
          select(path, next, true)
        }
      },
      select: (id) => select(path, id),
      move(id, delta) {
        select(path, id)
        void host.run(delta < 0 ? 'templates.moveUp' : 'templates.moveDown', 'button')
      },
      setRequired: (id, required) => edit(path, (x) => ops.setRequired(x, id, required)),
      remove(id, selected) {
        edit(path, (x) => ops.removeItem(x, id))
        if (selected) select(path, null)
      },
    }
  }, [path, index, host])

  // One item of the whole form is in the Tab order: the selected one, else the first.
  const tabStop = d.selected ?? d.sections.find((x) => x.items.length > 0)?.items[0]?.indicatorId ?? null
  const nameOf = (f: Indicator) => bilingual(f.nameZh, f.nameEn, lang)

  return (
    <section
      className={`designer-section ${s.repeating ? 'repeating' : ''}`}
      data-testid={`designer-section-${s.key}`}
      aria-label={s.title || t('form.sectionN', [index + 1])}
    >
      <div className="designer-section-head">
        <InputGroup
          value={s.title}
          placeholder={t('form.sectionN', [index + 1])}
          aria-label={t('template.sectionTitle')}
          maxLength={maxSectionTitle}
          onChange={(e) => {
            const title = e.currentTarget.value
            edit(path, (x) => ops.updateSection(x, s.key, { title }))
          }}
        />
        <Switch
          label={t('template.repeating')}
          checked={s.repeating}
          onChange={(e) => {
            const repeating = e.currentTarget.checked
            edit(path, (x) => ops.updateSection(x, s.key, { repeating }))
          }}
          className="designer-repeating"
        />
        <BusyButton
          icon="arrow-up"
          variant="minimal"
          size="small"
          focusableWhenDisabled
          disabled={index === 0}
          aria-label={t('template.sectionUp')}
          title={t('template.sectionUp')}
          onClick={() => edit(path, (x) => ops.moveSection(x, s.key, -1))}
        />
        <BusyButton
          icon="arrow-down"
          variant="minimal"
          size="small"
          focusableWhenDisabled
          disabled={index === last}
          aria-label={t('template.sectionDown')}
          title={t('template.sectionDown')}
          onClick={() => edit(path, (x) => ops.moveSection(x, s.key, 1))}
        />
        <Button
          icon="trash"
          variant="minimal"
          size="small"
          intent="danger"
          aria-label={t('template.removeSection')}
          title={t('template.removeSection')}
          onClick={onRemove}
        />
      </div>
      <ol className="designer-items" aria-label={t('template.items')}>
        {s.items.slice(0, budget).map((item, i) => {
          const f = d.indicators[String(item.indicatorId)]
          const dependsOn = f?.dependentFieldId != null ? d.indicators[String(f.dependentFieldId)] : undefined
          // The field's name, else its code (a version names it), never a bare id.
          const dependsOnName = dependsOn ? nameOf(dependsOn) : (f?.dependentCode ?? `#${f?.dependentFieldId ?? ''}`)
          return (
            <DesignerItem
              key={item.indicatorId}
              item={item}
              f={f}
              no={i + 1}
              name={f ? nameOf(f) : `#${item.indicatorId}`}
              dependsOn={
                f && f.dependentFieldId !== null
                  ? t('template.dependsOn', [dependsOnName, dependentValueText(dependsOn, f.dependentValue, lang)])
                  : null
              }
              dependsOff={
                f != null && f.dependentFieldId !== null && !placed.has(f.dependentFieldId)
                  ? t('template.dependentOffForm', [dependsOnName])
                  : null
              }
              selected={d.selected === item.indicatorId}
              tabbable={tabStop === item.indicatorId}
              drop={over === i ? 'drop-before' : over === i + 1 && i === s.items.length - 1 ? 'drop-after' : ''}
              first={index === 0 && i === 0}
              last={index === last && i === s.items.length - 1}
              actions={rowActions}
            />
          )
        })}
        <li
          className={`designer-drop ${over === s.items.length && s.items.length === 0 ? 'drop-before' : ''}`}
          aria-hidden
          onDragOver={(e) => {
            e.preventDefault()
            setOver(s.items.length)
          }}
          onDragLeave={() => setOver(null)}
          onDrop={(e) => rowActions.drop(e, s.items.length)}
        >
          {s.items.length === 0 ? t('template.dropHere') : ''}
        </li>
      </ol>
    </section>
  )
}

interface RowActions {
  setOver(at: number | null): void
  drop(e: DragEvent<HTMLElement>, at: number): void
  key(e: KeyboardEvent<HTMLElement>, id: number): void
  select(id: number): void
  move(id: number, delta: -1 | 1): void
  setRequired(id: number, required: boolean): void
  remove(id: number, selected: boolean): void
}

/** One placed indicator; memoised, its props are plain values and one shared set of actions. */
const DesignerItem = memo(function DesignerItem(props: {
  item: LayoutItem
  f: Indicator | undefined
  no: number
  name: string
  dependsOn: string | null
  dependsOff: string | null
  selected: boolean
  tabbable: boolean
  drop: string
  first: boolean
  last: boolean
  actions: RowActions
}) {
  const { item, f, no, name, dependsOn, dependsOff, selected, tabbable, drop, first, last, actions } = props
  const t = useT()
  const id = item.indicatorId
  const i = no - 1
  return (
    <li
      className={`designer-item ${selected ? 'selected' : ''} ${drop}`}
      tabIndex={tabbable ? 0 : -1}
      draggable
      aria-current={selected ? 'true' : undefined}
      aria-label={name}
      data-item-id={id}
      data-code={f?.code}
      data-testid="designer-item"
      onFocus={(e) => {
        if (e.target === e.currentTarget && !selected) actions.select(id)
      }}
      onClick={() => actions.select(id)}
      onKeyDown={(e) => actions.key(e, id)}
      onDragStart={(e) => {
        e.dataTransfer.setData('text/plain', String(id))
        e.dataTransfer.effectAllowed = 'move'
      }}
      onDragOver={(e) => {
        e.preventDefault()
        actions.setOver(dropIndex(e, i))
      }}
      onDragLeave={() => actions.setOver(null)}
      onDrop={(e) => actions.drop(e, dropIndex(e, i))}
    >
      <Icon icon="drag-handle-vertical" className="designer-grip" />
      <span className="designer-item-no">{no}</span>
      <code className="designer-item-code">{f?.code}</code>
      <span className="designer-item-name">{name}</span>
      {/* Blueprint's Tag measures its text on mount (a forced layout each): thousands of rows take its classes instead. */}
      {f && <span className={`${Classes.TAG} ${Classes.MINIMAL}`}>{t(`template.indicatorType.${f.type}`)}</span>}
      {f?.unit && <span className="bp6-text-muted">{f.unit}</span>}
      {dependsOn && <span className="bp6-text-muted designer-item-dep">{dependsOn}</span>}
      {dependsOff && (
        <Tag minimal intent="warning" icon="warning-sign" data-testid="dependent-off-form">
          {dependsOff}
        </Tag>
      )}
      <span className="designer-item-tools">
        <Checkbox
          label={t('template.required')}
          checked={item.required}
          inline
          data-testid="item-required"
          onChange={(e) => actions.setRequired(id, e.currentTarget.checked)}
        />
        <Button
          icon="arrow-up"
          variant="minimal"
          size="small"
          tabIndex={-1}
          aria-label={t('template.command.moveUp')}
          title={t('template.command.moveUp')}
          disabled={first}
          onClick={() => actions.move(id, -1)}
        />
        <Button
          icon="arrow-down"
          variant="minimal"
          size="small"
          tabIndex={-1}
          aria-label={t('template.command.moveDown')}
          title={t('template.command.moveDown')}
          disabled={last}
          onClick={() => actions.move(id, 1)}
        />
        <Button
          icon="cross"
          variant="minimal"
          size="small"
          tabIndex={-1}
          aria-label={t('template.removeItem')}
          title={`${t('template.removeItem')} (Delete)`}
          onClick={() => actions.remove(id, selected)}
        />
      </span>
    </li>
  )
})

/** A dependent value as the reader knows it: the choice's label with its code, or the value itself. */
function dependentValueText(dep: Indicator | undefined, value: string | null, lang: 'zh' | 'en'): string {
  const c = dep?.options.find((o) => o.code === value)
  return c ? `${choiceLabel(c, lang)} (${c.code})` : (value ?? '')
}
