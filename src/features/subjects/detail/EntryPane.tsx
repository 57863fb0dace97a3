/**
 * One form instance of a subject, entered with the one form renderer against the version the
 * server returns (the record's own, or the pinned one for a first entry). Every edit goes to the
 * entry pipeline as a draft; a save goes through it too (queued while the server is away, a 409
 * shown as a conflict), after a reason when it changes saved values; values the server refuses are
 * marked on their fields, the toast summing up. While compared with another pane, the fields whose
 * values differ are highlighted.
 */
import { useEffect, useImperativeHandle, useMemo, useRef, useState, type Ref } from 'react'
import { Button, Callout, NonIdealState, Spinner, Tag } from '@blueprintjs/core'
import { useSnapshot } from 'valtio'
import type { FormInstance, FormNode, SaveConflict } from '../../../../contract/studyData.ts'
import type { SubjectVisit } from '../../../../contract/followUp.ts'
import { newRow, indicatorMap, rowPath, type FormData, type FormErrors } from '../../../../contract/formValues.ts'
import { invalidate, useApi } from '../../../api/query.ts'
import { useLang, useT } from '../../../i18n/useT.ts'
import { formatTime } from '../../../lib/time.ts'
import { FormRenderer, focusFirstInvalid, validateForm } from '../../../ui/FormRenderer.tsx'
import { toast } from '../../../ui/toaster.ts'
import { entryPipeline } from '../entry/entryPipeline.ts'
import type { EntryKey } from '../entry/pipeline.ts'
import { SaveStateTag } from '../entry/SaveStateTag.tsx'
import { ConflictDialog } from '../entry/ConflictDialog.tsx'
import { getForm } from './api/getForm.ts'
import { viewForm } from './api/viewForm.ts'
import {
  changesSaved,
  differences,
  differsFrom,
  emptyRequired,
  savedLock,
  rowIdentity,
  toFormData,
  toSave,
  type Difference,
} from './entryData.ts'
import {
  fieldOf,
  fieldSelector,
  focusField,
  focusWhenShown,
  nextAfterFocus,
  offsetInView,
  rowOf,
  showAtOffset,
  subFormOf,
} from './fieldDom.ts'
import { compareState, partnerOf, revealInPartner, showForm } from './compareStore.ts'
import { ReasonDialog } from './ReasonDialog.tsx'
import { stillRefused } from './refusedFields.ts'
import type { FieldRef, OpenForm, RowDeletion } from '../../../../commands/dataEntry.ts'
import { bilingual } from '../../../../contract/bilingual.ts'

const noErrors: FormErrors = {}

/** What the detail (and so the commands) can ask of the open form. */
export interface EntryHandle {
  form: OpenForm | null
  save(): Promise<void>
  addRow(): boolean
  deleteRow(): RowDeletion
  focusedField(): FieldRef | null
  nextEmptyRequired(): boolean
  nextDifference(): boolean
  comparing: boolean
}

export interface EntryPaneProps {
  /** The detail's path: the compare pairing and the draft are keyed by it and by the form. */
  path: string
  studyId: number
  subjectId: number
  node: FormNode
  recordId: number | null
  slot: string
  canEnter: boolean
  /** May change what was saved (the project role's editData); else only empty fields and new rows are open. */
  canEditSaved: boolean
  /** The planned visit this instance is entered for (a follow-up form), when the schedule is read. */
  visit?: Pick<SubjectVisit, 'plannedDate' | 'windowStart' | 'state'>
  /** A form's name (the forms this one waits for). */
  nameOf(templateId: number): string
  /** A first save made a record: the detail selects it. */
  onSaved(recordId: number): void
  handle: Ref<EntryHandle | null>
  /** The form's state behind `handle` changed (or the form closed): the detail draws its buttons again from it. */
  onFormChange(): void
}

export function EntryPane(props: EntryPaneProps) {
  const { studyId, subjectId, node, recordId, slot, canEnter } = props
  const t = useT()
  const query = { studyId, objectId: subjectId, templateId: node.templateId, ...(recordId !== null ? { recordId } : { slot }) }
  const loaded = useApi(['subjectForms', 'form', query, canEnter], (signal) =>
    canEnter ? getForm(query, { signal }) : viewForm(query, { signal }),
  )
  if (!loaded.data) {
    if (loaded.loading) return <Spinner className="view-spinner" />
    return <NonIdealState icon="error" title={t('message.loadError')} />
  }
  return <Entry {...props} instance={loaded.data} />
}

function Entry({
  path,
  studyId,
  subjectId,
  node,
  slot,
  canEnter,
  canEditSaved,
  visit,
  nameOf,
  onSaved,
  handle,
  onFormChange,
  instance,
}: EntryPaneProps & { instance: FormInstance }) {
  const t = useT()
  const lang = useLang()
  const root = useRef<HTMLDivElement>(null)
  // The field the focus was last in: a click on a toolbar button takes the focus away from it.
  const lastField = useRef<Element | null>(null)
  const definition = instance.version
  const record = instance.record
  const key: EntryKey = useMemo(
    () => ({ studyId, subjectId, templateId: node.templateId, slot: record?.slot ?? slot }),
    [studyId, subjectId, node.templateId, record?.slot, slot],
  )
  const base = useMemo(() => toFormData(instance), [instance])
  const [data, setData] = useState<FormData>(base)
  const [restored, setRestored] = useState(false)
  const [showAll, setShowAll] = useState(false)
  const [reasonFor, setReasonFor] = useState<((reason: string | null) => void) | null>(null)
  const state = entryPipeline.useSaveState(key)
  const [conflictOpen, setConflictOpen] = useState(false)
  // The rev the next save starts from: the loaded one, or the stored one after a conflict was resolved.
  const [rev, setRev] = useState(record?.rev ?? 0)
  // After a conflict was resolved: what is stored now, which the next save changes (and so may need a reason for).
  const [stored, setStored] = useState<SaveConflict['current'] | null>(null)
  // The server's messages for the fields of a refused save, until those fields change.
  const [refused, setRefused] = useState<FormErrors>(noErrors)

  // A new answer from the server (after a save, or another pane's) is what the form shows, unless a draft is kept.
  useEffect(() => {
    let live = true
    setData(base)
    setRev(instance.record?.rev ?? 0)
    setStored(null)
    setRefused(noErrors)
    setRestored(false)
    void entryPipeline.loadDraft(key).then((draft) => {
      if (live && draft && differsFrom(draft, base)) {
        setData(draft)
        setRestored(true)
      }
    })
    return () => {
      live = false
    }
  }, [base, key, instance.record?.rev])

  // A save that was queued and has now arrived: read the stored record again.
  const previousKind = useRef(state.kind)
  useEffect(() => {
    if (state.kind === 'saved' && (previousKind.current === 'queued' || previousKind.current === 'sending')) invalidate('subjectForms')
    if (state.kind === 'conflict') setConflictOpen(true)
    previousKind.current = state.kind
  }, [state.kind])
  // A refusal may arrive for a queued save too, so the fields are marked from the state.
  useEffect(() => {
    if (state.kind === 'refused') setRefused(state.fields ?? noErrors)
    else if (state.kind === 'saved') setRefused(noErrors)
  }, [state])

  const waiting = node.waitingFor.length > 0 && record === null
  const signed = record?.status === 'signed'
  const editable = canEnter && !signed && !waiting
  const dirty = differsFrom(data, base)
  const locked = useMemo(
    () => (editable && !canEditSaved ? savedLock(instance, data) : undefined),
    [editable, canEditSaved, instance, data],
  )

  const edit = (next: FormData) => {
    setRefused((r) => stillRefused(r, data, next))
    setData(next)
    // Back to the saved values (a row added, then removed): nothing is left to keep, the tag says
    // saved. Not while a save is under way or clashed, nor against values a conflict replaced.
    const settled = stored === null && (state.kind === 'saved' || state.kind === 'unsaved')
    if (settled && !differsFrom(next, base)) void entryPipeline.dropDraft(key)
    else entryPipeline.keepDraft(key, next)
  }

  // Compare: publish what this pane shows; read the partner's.
  const snap = useSnapshot(compareState)
  const partner = partnerOf(snap.pairs, path)
  const theirs = partner ? snap.forms[partner] : undefined
  useEffect(() => {
    showForm(path, { templateId: node.templateId, definition, data })
  }, [path, node.templateId, definition, data])
  useEffect(() => () => showForm(path, null), [path])
  const diffs: Difference[] = useMemo(
    () => (theirs && theirs.templateId === node.templateId ? differences(definition, data, theirs.data) : []),
    [theirs, node.templateId, definition, data],
  )
  const diffSelectors = useMemo(() => diffs.map((d) => fieldSelector(definition, d)), [diffs, definition])
  const revealed = partner ? snap.reveal[path] : undefined
  useEffect(() => {
    const field = revealed && root.current?.querySelector(revealed.selector)
    if (field) showAtOffset(field, revealed.offset)
  }, [revealed])

  async function save() {
    if (!editable) return
    const errors = validateForm(definition, data, lang)
    const count = Object.keys(errors).length
    if (count > 0) {
      setShowAll(true)
      toast(t('dataEntry.entry.invalid', [count]), 'danger')
      requestAnimationFrame(() => root.current && focusFirstInvalid(root.current))
      return
    }
    const target = { studyId, objectId: subjectId, templateId: node.templateId, slot: key.slot, recordId: record?.id ?? null, rev }
    let draft = toSave(definition, data, target)
    if (changesSaved(stored ?? instance, draft)) {
      const reason = await new Promise<string | null>((resolve) => setReasonFor(() => resolve))
      setReasonFor(null)
      if (reason === null) return
      draft = toSave(definition, data, target, reason)
    }
    const outcome = await entryPipeline.submit(key, draft)
    if (outcome.kind === 'saved') {
      toast(outcome.saved.changed === 0 ? t('dataEntry.entry.nothingChanged') : t('message.saveSuccess'), 'success')
      await entryPipeline.dropDraft(key)
      if (record === null) onSaved(outcome.saved.record.id)
      invalidate('subjectForms')
    } else if (outcome.kind === 'refused') {
      toast(outcome.message, 'danger')
      if (outcome.fields) requestAnimationFrame(() => root.current && focusFirstInvalid(root.current))
    }
  }

  const handleValue: EntryHandle = {
    form: { templateId: node.templateId, recordId: record?.id ?? null, rev, status: record?.status ?? null, editable, dirty },
    comparing: partner !== null,
    save,
    addRow: () => {
      const sections = definition.layout.sections.filter((s) => s.repeating)
      const here = subFormOf(document.activeElement)
      const s = sections.find((x) => x.key === here) ?? sections[0]
      if (!s || !editable) return false
      const rows = data.rows[s.key] ?? []
      edit({ ...data, rows: { ...data.rows, [s.key]: [...rows, newRow(s, indicatorMap(definition))] } })
      // The new row's first field takes the focus once it is drawn.
      if (root.current) focusWhenShown(root.current, `[data-testid="row-${s.key}-${rows.length}"] [data-field]`)
      return true
    },
    deleteRow: () => {
      const at = rowOf(document.activeElement)
      if (!at || !editable || !root.current?.contains(document.activeElement)) return 'noRow'
      if (locked?.(rowPath(at.section, at.row))) return 'saved'
      const rows = data.rows[at.section] ?? []
      edit({ ...data, rows: { ...data.rows, [at.section]: rows.filter((_, i) => i !== at.row) } })
      return 'deleted'
    },
    focusedField: () => {
      const active = document.activeElement
      const el = root.current?.contains(active) && fieldOf(definition, active) ? active : lastField.current
      if (!record || !el?.isConnected || !root.current?.contains(el)) return null
      const at = fieldOf(definition, el)
      const f = at && definition.indicators.find((i) => i.id === at.indicatorId)
      if (!f) return null
      const label = bilingual(f.nameZh, f.nameEn, lang)
      if (at.section === undefined || at.row === undefined) return { recordId: record.id, field: f.id, label }
      // A field of a sub form is in every row: its history is the focused row's.
      const row = data.rows[at.section]?.[at.row]
      const rowId = row ? (rowIdentity(row)?.id ?? null) : null
      return { recordId: record.id, field: f.id, label: t('dataEntry.history.inRow', [label, at.row + 1]), rowId }
    },
    nextEmptyRequired: () => {
      if (!root.current) return false
      const selectors = emptyRequired(definition, data).map((d) => fieldSelector(definition, d))
      const i = nextAfterFocus(root.current, selectors)
      return i >= 0 && focusField(root.current, selectors[i] as string)
    },
    nextDifference: () => {
      if (!root.current) return false
      const i = nextAfterFocus(root.current, diffSelectors)
      const selector = diffSelectors[i]
      if (i < 0 || !selector || !focusField(root.current, selector, 'center')) return false
      // Centred here, the partner's same field is drawn at the same height beside it.
      revealInPartner(path, selector, offsetInView(root.current.querySelector(selector)!))
      return true
    },
  }
  useImperativeHandle(handle, () => handleValue)
  // Told after the handle holds the new state, and once more as the form closes.
  useEffect(onFormChange, [record?.id, rev, record?.status, editable, dirty, onFormChange])
  useEffect(() => onFormChange, [onFormChange])

  const diffStyle = diffSelectors
    .filter((s): s is string => s !== null)
    .map((s) => `[data-pane=${JSON.stringify(path)}] ${s}`)
    .join(',\n')

  return (
    <div
      className="entry-pane"
      ref={root}
      data-pane={path}
      data-testid="entry-pane"
      data-dirty={dirty}
      onFocus={(e) => {
        if (fieldOf(definition, e.target)) lastField.current = e.target
      }}
    >
      {/* The highlight reaches 8 px past the field on each side and the field's content keeps its place: an
          input or unit at the field's edge (a pane of a 1280–1440 px window) stays clear of the outline. */}
      {diffStyle && (
        <style>{`${diffStyle} { background: var(--entry-diff-bg, #fff3cd); outline: 2px solid #d9822b; margin-inline: -8px; padding-inline: 8px; }`}</style>
      )}
      <div className="entry-toolbar">
        <SaveStateTag
          state={
            state.kind !== 'saved' ? state : dirty ? { kind: 'unsaved' } : record === null && state.at === null ? { kind: 'empty' } : state
          }
        />
        {record && (
          <Tag minimal>{t('dataEntry.entry.updated', [formatTime(record.updatedAt, undefined, lang) ?? '', record.updatedBy])}</Tag>
        )}
        <Tag minimal>{t('dataEntry.entry.version', [definition.version])}</Tag>
        {partner && (
          <Tag intent={diffs.length ? 'warning' : 'success'} data-testid="compare-count">
            {theirs && theirs.templateId !== node.templateId
              ? t('dataEntry.compare.otherForm')
              : t('dataEntry.compare.comparing', [diffs.length])}
          </Tag>
        )}
      </div>
      {!canEnter && <Callout intent="primary">{t('dataEntry.entry.readOnly')}</Callout>}
      {locked && record !== null && (
        <Callout intent="primary" data-testid="saved-locked">
          {t('dataEntry.entry.savedLocked')}
        </Callout>
      )}
      {signed && <Callout intent="success">{t('dataEntry.entry.signed')}</Callout>}
      {visit?.state === 'upcoming' && (
        <Callout intent="warning" data-testid="visit-not-due">
          {t('dataEntry.entry.notYetDue', [visit.windowStart, visit.plannedDate])}
        </Callout>
      )}
      {waiting && <Callout intent="warning">{t('dataEntry.entry.waiting', [node.waitingFor.map(nameOf).join(', ')])}</Callout>}
      {restored && (
        <Callout intent="warning" data-testid="draft-restored">
          {t('dataEntry.entry.draftRestored')}{' '}
          <Button
            size="small"
            variant="minimal"
            text={t('dataEntry.entry.discardDraft')}
            onClick={() => {
              void entryPipeline.dropDraft(key)
              setData(base)
              setRestored(false)
            }}
          />
        </Callout>
      )}
      <FormRenderer
        definition={definition}
        value={data}
        onChange={edit}
        readOnly={!editable}
        locked={locked}
        showAllErrors={showAll}
        refused={refused}
      />
      {reasonFor && <ReasonDialog purpose="save" onDone={reasonFor} />}
      {conflictOpen && state.kind === 'conflict' && (
        <ConflictDialog
          definition={definition}
          mine={data}
          theirs={state.current}
          onClose={() => setConflictOpen(false)}
          onResolve={(merged, storedRev) => {
            setConflictOpen(false)
            setStored(state.current)
            setRev(storedRev)
            edit(merged)
          }}
        />
      )}
    </div>
  )
}
