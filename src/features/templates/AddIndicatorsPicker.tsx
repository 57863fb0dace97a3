import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react'
import { Button, Icon, InputGroup, Spinner, Tag } from '@blueprintjs/core'
import type { Indicator } from '../../../contract/dictionary.ts'
import { useLang, useT } from '../../i18n/useT.ts'
import { searchIndicators } from './api/searchIndicators.ts'
import { bilingual } from '../../../contract/bilingual.ts'

const pageSize = 50

/**
 * Search the dictionary by code or name (prefix) and pick several indicators. Keyboard: ↑ ↓ move,
 * Enter ticks or unticks, Ctrl+Enter (⌘+Enter) adds the ticked ones. Indicators already in the
 * form are shown but cannot be picked again.
 */
export function AddIndicatorsPicker({
  placed,
  onAdd,
  onCancel,
  autoFocus = false,
}: {
  placed: ReadonlySet<number>
  onAdd(indicators: Indicator[]): void
  onCancel?: () => void
  autoFocus?: boolean
}) {
  const t = useT()
  const lang = useLang()
  const uid = useId()
  const [q, setQ] = useState('')
  const [rows, setRows] = useState<Indicator[] | null>(null)
  const [total, setTotal] = useState(0)
  const [active, setActive] = useState(0)
  const [picked, setPicked] = useState<ReadonlyMap<number, Indicator>>(new Map())
  const list = useRef<HTMLDivElement>(null)

  useEffect(() => {
    const abort = new AbortController()
    const timer = setTimeout(() => {
      searchIndicators(q, pageSize, abort.signal).then(
        (page) => {
          setRows(page.rows)
          setTotal(page.total)
          setActive(0)
        },
        () => undefined,
      )
    }, 200)
    return () => {
      clearTimeout(timer)
      abort.abort()
    }
  }, [q])

  useEffect(() => {
    list.current?.querySelector(`[data-index="${active}"]`)?.scrollIntoView({ block: 'nearest' })
  }, [active])

  const toggle = (f: Indicator) => {
    if (placed.has(f.id)) return
    const next = new Map(picked)
    if (next.has(f.id)) next.delete(f.id)
    else next.set(f.id, f)
    setPicked(next)
  }
  const add = () => {
    const chosen = [...picked.values()]
    const current = rows?.[active]
    if (chosen.length === 0 && current && !placed.has(current.id)) chosen.push(current)
    if (chosen.length === 0) return
    onAdd(chosen)
    setPicked(new Map())
  }

  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    const n = rows?.length ?? 0
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault()
      if (n > 0) setActive((a) => (a + (e.key === 'ArrowDown' ? 1 : -1) + n) % n)
    } else if (e.key === 'Enter') {
      e.preventDefault()
      if (e.ctrlKey || e.metaKey) add()
      else {
        const f = rows?.[active]
        if (f) toggle(f)
      }
    }
  }

  const listId = `${uid}-list`
  const optionId = (i: number) => `${uid}-opt-${i}`
  return (
    <div className="indicator-picker" data-testid="indicator-picker">
      <InputGroup
        leftIcon="search"
        autoFocus={autoFocus}
        placeholder={t('template.picker.placeholder')}
        value={q}
        onChange={(e) => setQ(e.currentTarget.value)}
        onKeyDown={onKeyDown}
        role="combobox"
        aria-expanded
        aria-controls={listId}
        aria-activedescendant={rows && rows.length > 0 ? optionId(active) : undefined}
        aria-label={t('template.picker.placeholder')}
        data-testid="indicator-search"
      />
      <div className="indicator-picker-list" id={listId} role="listbox" aria-multiselectable ref={list}>
        {rows === null ? (
          <Spinner size={20} />
        ) : rows.length === 0 ? (
          <p className="bp6-text-muted">{t('template.picker.none')}</p>
        ) : (
          rows.map((f, i) => {
            const inForm = placed.has(f.id)
            const on = picked.has(f.id)
            return (
              <div
                key={f.id}
                id={optionId(i)}
                role="option"
                aria-selected={on}
                aria-disabled={inForm}
                data-index={i}
                data-code={f.code}
                data-testid="indicator-option"
                className={`indicator-option ${i === active ? 'active' : ''} ${inForm ? 'placed' : ''}`}
                onMouseEnter={() => setActive(i)}
                onClick={() => toggle(f)}
              >
                <Icon icon={inForm ? 'tick-circle' : on ? 'tick' : 'blank'} className="indicator-option-check" />
                <code>{f.code}</code>
                <span className="indicator-option-name">{bilingual(f.nameZh, f.nameEn, lang)}</span>
                <Tag minimal>{t(`template.indicatorType.${f.type}`)}</Tag>
                {f.unit && <span className="bp6-text-muted">{f.unit}</span>}
                {inForm && <span className="bp6-text-muted">{t('template.picker.inForm')}</span>}
              </div>
            )
          })
        )}
      </div>
      <div className="indicator-picker-footer">
        <span className="bp6-text-muted">
          {rows !== null && total > rows.length ? t('template.picker.more', [rows.length, total]) : ''} {t('template.picker.keys')}
        </span>
        {onCancel && <Button text={t('common.cancel')} onClick={onCancel} />}
        <Button
          intent="primary"
          icon="add"
          text={t('template.picker.add', [picked.size])}
          disabled={picked.size === 0}
          onClick={add}
          data-testid="indicator-add"
        />
      </div>
    </div>
  )
}
