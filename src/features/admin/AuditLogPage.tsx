import { useCallback, useMemo, useRef, useState } from 'react'
import { Button, Callout, H3, H5, InputGroup } from '@blueprintjs/core'
import { HTMLSelect } from '../../ui/HTMLSelect.tsx'
import { auditObjectTypes, auditOutcomes, type AuditEntry, type AuditFilters, type AuditOutcome } from '../../../contract/audit.ts'
import { paramsOf } from '../../../contract/screenPaths.ts'
import { auditView } from '../../../commands/audit.ts'
import { useLang, useT } from '../../i18n/useT.ts'
import { formatTime } from '../../lib/time.ts'
import { CommandButton } from '../../ui/CommandButton.tsx'
import { DenseTable, type DenseColumn, type Fetcher, type Sort } from '../../ui/DenseTable.tsx'
import { useSettled } from '../../ui/useSettled.ts'
import { provide, usePublish } from '../../state/focus.ts'
import { DateControl } from '../../ui/formRenderer/DateControl.tsx'
import { listAudit } from './api/listAudit.ts'
import { invalidRange, rangeFormat, rangeInstant, rangeText } from './auditRange.ts'

/** Text inputs settle for this long before the list asks the server. */
const typingDelay = 300

interface Draft {
  username: string
  action: string
  objectType: string
  objectId: string
  ip: string
  /** The range as typed (auditRange.ts), '' when unset. */
  from: string
  to: string
  outcome: AuditOutcome | ''
}

/** Filters written in the tab's path (e.g. a record's history opens `?objectType=indicator&objectId=5`). */
function draftFromPath(path: string): Draft {
  const p = paramsOf('auditLog', path) ?? {}
  return {
    username: p.username ?? '',
    action: p.action ?? '',
    objectType: p.objectType ?? '',
    objectId: p.objectId === undefined ? '' : String(p.objectId),
    ip: p.ip ?? '',
    from: rangeText(p.from),
    to: rangeText(p.to),
    outcome: p.outcome ?? '',
  }
}

const positiveInt = /^[1-9]\d{0,9}$/

function filtersOf(d: Draft): AuditFilters {
  const text = (s: string) => s.trim() || undefined
  return {
    username: text(d.username),
    action: text(d.action),
    objectType: text(d.objectType),
    objectId: positiveInt.test(d.objectId.trim()) ? Number(d.objectId.trim()) : undefined,
    ip: text(d.ip),
    from: rangeInstant(d.from, false),
    to: rangeInstant(d.to, true),
    outcome: d.outcome || undefined,
  }
}

const compact = (detail: Record<string, unknown>) => {
  const text = JSON.stringify(detail)
  return text === '{}' ? '' : text
}

const noRows = { rows: [], next: null, total: 0 }
const newestFirst: Sort = { key: 'at', order: 'desc' }

/**
 * The audit log (issue 8 item 6, a management screen): every audited action newest first in one
 * DenseTable, filtered on the server by user, action, record, time range, address and outcome,
 * keyset paged. A row's detail shows as compact JSON (the whole text on hover); Enter or a double
 * click opens it in full below the table. The export buttons run the audit commands with the
 * filters shown, which the page also offers the palette (capability `auditView`).
 */
export default function AuditLogPage({ path = '' }: { path?: string }) {
  const t = useT()
  const lang = useLang()
  const initial = useMemo(() => draftFromPath(path), [path])
  const [draft, setDraft] = useState<Draft>(initial)
  const settled = useSettled(draft, typingDelay)
  const [open, setOpen] = useState<AuditEntry | null>(null)

  const filters = useMemo(() => filtersOf(settled), [settled])
  const backwards = filters.from !== undefined && filters.to !== undefined && filters.from > filters.to
  // A bound that is no time is not dropped silently: the list would show rows outside the range meant.
  const unreadable = (['from', 'to'] as const).filter((b) => invalidRange(settled[b]))
  const refused = backwards || unreadable.length > 0
  const filtersRef = useRef(filters)
  filtersRef.current = filters
  usePublish(path, undefined, [provide(auditView, () => filtersRef.current)])

  // An unreadable bound gives the same filters as none: the key tells the two apart.
  const queryKey = JSON.stringify([filters, unreadable])
  const fetchPage: Fetcher<AuditEntry> = useCallback(
    // A backwards or unreadable range is said beside the inputs; the server would only refuse it again.
    (cursor, limit, signal) =>
      refused ? Promise.resolve(noRows) : listAudit({ ...filters, cursor: cursor ?? undefined, limit }, { signal }),
    [filters, refused],
  )

  const columns = useMemo<DenseColumn<AuditEntry>[]>(
    () => [
      { id: 'at', header: 'audit.field.at', width: 165, render: (r) => formatTime(r.at, '{y}-{m}-{d} {h}:{i}:{s}', lang) ?? r.at },
      { id: 'username', header: 'audit.field.username', width: 120, render: (r) => r.username },
      { id: 'ip', header: 'audit.field.ip', width: 110, render: (r) => r.ip },
      { id: 'action', header: 'audit.field.action', width: 160, render: (r) => r.action },
      {
        id: 'outcome',
        header: 'audit.field.outcome',
        width: 90,
        render: (r) => outcomeLabel(r.outcome),
      },
      {
        id: 'object',
        header: 'audit.field.object',
        width: 120,
        render: (r) => (r.objectType === null ? '' : `${objectTypeLabel(r.objectType)} #${r.objectId ?? ''}`),
      },
      {
        id: 'detail',
        header: 'audit.field.detail',
        width: 320,
        render: (r) => {
          const text = compact(r.detail)
          return <span title={text}>{text}</span>
        },
      },
    ],
    // outcomeLabel and objectTypeLabel read t only.
    [t, lang],
  )

  function outcomeLabel(outcome: string): string {
    return (auditOutcomes as readonly string[]).includes(outcome) ? t(`audit.outcomes.${outcome}`) : outcome
  }

  function objectTypeLabel(type: string): string {
    return (auditObjectTypes as readonly string[]).includes(type) ? t(`audit.objectTypes.${type}`) : type
  }

  const set = (patch: Partial<Draft>) => setDraft((d) => ({ ...d, ...patch }))
  const typeOptions = [
    ...auditObjectTypes,
    ...(draft.objectType && !(auditObjectTypes as readonly string[]).includes(draft.objectType) ? [draft.objectType] : []),
  ]

  const filterBar = (
    <>
      <InputGroup
        leftIcon="user"
        className="audit-filter"
        placeholder={t('audit.userPlaceholder')}
        aria-label={t('audit.field.username')}
        data-testid="audit-filter-user"
        value={draft.username}
        onValueChange={(username) => set({ username })}
      />
      <InputGroup
        className="audit-filter"
        placeholder={t('audit.actionPlaceholder')}
        aria-label={t('audit.field.action')}
        data-testid="audit-filter-action"
        value={draft.action}
        onValueChange={(action) => set({ action })}
      />
      <HTMLSelect
        aria-label={t('audit.field.objectType')}
        data-testid="audit-filter-object-type"
        value={draft.objectType}
        onChange={(e) => set({ objectType: e.currentTarget.value })}
        options={[{ value: '', label: t('audit.allObjectTypes') }, ...typeOptions.map((k) => ({ value: k, label: objectTypeLabel(k) }))]}
      />
      <InputGroup
        className="audit-filter-id"
        inputMode="numeric"
        placeholder={t('audit.field.objectId')}
        aria-label={t('audit.field.objectId')}
        data-testid="audit-filter-object-id"
        value={draft.objectId}
        onValueChange={(objectId) => set({ objectId })}
      />
      {(['from', 'to'] as const).map((bound) => (
        <label key={bound} className="audit-range" data-testid={`audit-filter-${bound}`}>
          <span>{t(`audit.field.${bound}`)}</span>
          <DateControl
            id={`audit-filter-${bound}`}
            format={rangeFormat}
            value={draft[bound]}
            readOnly={false}
            a11y={{
              'aria-required': false,
              'aria-invalid': invalidRange(draft[bound]),
              'aria-describedby': unreadable.includes(bound) ? 'audit-range-unreadable' : undefined,
            }}
            onChange={(v) => set({ [bound]: v })}
          />
        </label>
      ))}
      <InputGroup
        className="audit-filter"
        placeholder={t('audit.ipPlaceholder')}
        aria-label={t('audit.field.ip')}
        data-testid="audit-filter-ip"
        value={draft.ip}
        onValueChange={(ip) => set({ ip })}
      />
      <HTMLSelect
        aria-label={t('audit.field.outcome')}
        data-testid="audit-filter-outcome"
        value={draft.outcome}
        onChange={(e) => set({ outcome: e.currentTarget.value as Draft['outcome'] })}
        options={[
          { value: '', label: t('audit.allOutcomes') },
          ...auditOutcomes.map((o) => ({ value: o, label: t(`audit.outcomes.${o}`) })),
        ]}
      />
      <Button
        variant="minimal"
        icon="filter-remove"
        text={t('common.reset')}
        data-testid="audit-filter-reset"
        onClick={() => setDraft(draftFromPath(''))}
      />
    </>
  )

  return (
    <div className="dense-page" data-testid="audit-log">
      <div className="dict-header">
        <H3>{t('route.auditLog')}</H3>
        <div className="dict-header-actions">
          <CommandButton id="audit.exportCsv" icon="export" args={{ filters }} label="CSV" />
          <CommandButton id="audit.exportXlsx" icon="export" args={{ filters }} label="Excel" />
        </div>
      </div>
      {unreadable.length > 0 && (
        <Callout intent="warning" className="form-error" id="audit-range-unreadable" data-testid="audit-range-unreadable">
          {unreadable.map((b) => t('audit.rangeUnreadable', [t(`audit.field.${b}`), settled[b].trim()])).join(' ')}
        </Callout>
      )}
      {backwards && (
        <Callout intent="warning" className="form-error" data-testid="audit-range-error">
          {t('audit.fromAfterTo')}
        </Callout>
      )}
      <DenseTable<AuditEntry>
        testId="audit-table"
        columns={columns}
        identifier="at"
        fetchPage={fetchPage}
        queryKey={queryKey}
        sort={newestFirst}
        onSort={() => undefined}
        onOpen={(row) => setOpen(row)}
        filters={filterBar}
        emptyText={t('audit.empty')}
      />
      {open ? (
        <section className="audit-detail" aria-label={t('audit.detailTitle', [open.id])} data-testid="audit-detail">
          <div className="dict-header">
            <H5>{t('audit.detailTitle', [open.id])}</H5>
            <Button
              variant="minimal"
              icon="cross"
              aria-label={t('audit.closeDetail')}
              title={t('audit.closeDetail')}
              onClick={() => setOpen(null)}
            />
          </div>
          <p data-testid="audit-detail-summary">
            {[
              formatTime(open.at, '{y}-{m}-{d} {h}:{i}:{s}', lang) ?? open.at,
              open.userId === null ? open.username : `${open.username} (#${open.userId})`,
              open.ip,
              open.action,
              outcomeLabel(open.outcome),
              open.objectType === null ? '' : `${objectTypeLabel(open.objectType)} #${open.objectId ?? ''}`,
            ]
              .filter(Boolean)
              .join(' · ')}
          </p>
          <pre>{JSON.stringify(open.detail, null, 2)}</pre>
        </section>
      ) : (
        <p className="bp6-text-muted audit-hint">{t('audit.detailHint')}</p>
      )}
    </div>
  )
}
