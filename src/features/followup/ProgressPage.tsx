import { useLayoutEffect, useRef, useState } from 'react'
import { H3, H4, HTMLTable, NonIdealState, Spinner, Tag } from '@blueprintjs/core'
import { bilingual } from '../../../contract/bilingual.ts'
import type { ProgressView } from '../../../contract/followUp.ts'
import { paramsOf } from '../../../contract/screenPaths.ts'
import { useApi } from '../../api/query.ts'
import { hasKey } from '../../i18n/index.ts'
import { useLang, useT } from '../../i18n/useT.ts'
import { usePublish } from '../../state/focus.ts'
import { CommandButton } from '../../ui/CommandButton.tsx'
import { getProject } from './api/getProject.ts'
import { getProgress } from './api/getProgress.ts'
import { clipToWidth, completion, crossTable, monthRows, niceTicks, queueTotal, rateBand, type MonthRow } from './progressModel.ts'
import './followUp.css'
import { useCurrentProject } from '../../state/currentProject.ts'
import { NoProjectState } from '../../ui/NoProjectState.tsx'

/** Center colours of the bar chart, in center order (repeated past the sixth). */
const palette = ['#2d72d2', '#238551', '#c87619', '#7961db', '#cd4246', '#00a396']

/**
 * Project progress (SPEC §2 project action menu; issue 10 item 10): enrolment against the planned
 * quantity over time, by center and queue, and CRF completion, as plain SVG charts (no chart
 * library) each followed by the table of its numbers, inside the caller's centers and queues.
 */
export default function ProgressPage({ path = '' }: { path?: string }) {
  const t = useT()
  const current = useCurrentProject()
  const id = paramsOf('progress', path)?.id ?? current?.id
  if (id === undefined)
    return <NoProjectState icon="timeline-bar-chart" title={t('route.progress')} description={t('noProject.progress')} />
  return <ProgressScreen key={id} id={id} path={path} />
}

function ProgressScreen({ id, path }: { id: number; path: string }) {
  const t = useT()
  const project = useApi(['followUp', 'project', id], (signal) => getProject(id, { signal }))
  const progress = useApi(['followUp', 'progress', id], (signal) => getProgress(id, { signal }))
  const p = project.data
  usePublish(path, p ? { kind: 'project', id: p.id, name: p.name } : undefined)

  if (!p || !progress.data) {
    if (project.loading || progress.loading) return <Spinner className="view-spinner" />
    return <NonIdealState icon="error" title={t('message.loadError')} />
  }
  const v = progress.data
  const months = monthRows(v)
  return (
    <div className="progress-page" data-testid="progress-page">
      <div className="dict-header">
        <H3>{t('followUp.progress.title', [p.name])}</H3>
        <div className="dict-header-actions">
          {v.wholeProject ? (
            <Tag large intent="primary" data-testid="progress-enrolled">
              {t('followUp.progress.enrolled', [v.enrolled, v.plannedQuantity])}
            </Tag>
          ) : (
            // The plan is the whole project's, with no share per center or queue: not this member's target.
            <>
              <Tag large intent="primary" data-testid="progress-enrolled">
                {t('followUp.progress.enrolledPart', [v.enrolled])}
              </Tag>
              <Tag large minimal data-testid="progress-project-plan">
                {t('followUp.progress.projectPlan', [v.plannedQuantity])}
              </Tag>
            </>
          )}
          <CommandButton id="followUp.open" icon="calendar" args={{ id: p.id }} />
        </div>
      </div>
      {v.enrolled === 0 ? (
        <NonIdealState icon="people" title={t('followUp.progress.noEnrolment')} />
      ) : (
        <div className="progress-charts">
          <section className="progress-chart" aria-labelledby="progress-enrolment">
            <H4 id="progress-enrolment">
              {t(v.wholeProject ? 'followUp.progress.enrolmentChart' : 'followUp.progress.enrolmentChartPart')}
            </H4>
            <EnrolmentChart months={months} planned={v.wholeProject ? v.plannedQuantity : null} />
          </section>
          <section className="progress-chart" aria-labelledby="progress-centers">
            <H4 id="progress-centers">{t('followUp.progress.centerChart')}</H4>
            <CenterChart view={v} />
          </section>
        </div>
      )}
      {v.enrolled > 0 && <Tables view={v} months={months} />}
      <section className="progress-chart" aria-labelledby="progress-completion">
        <H4 id="progress-completion">{t('followUp.progress.completionChart')}</H4>
        {v.forms.length === 0 ? (
          <p className="bp6-text-muted">{t('followUp.progress.noForms')}</p>
        ) : (
          <>
            <p className="bp6-text-muted" data-testid="progress-completion-note">
              {t('followUp.progress.completionNote', [v.today])}
            </p>
            <Completion view={v} />
          </>
        )}
      </section>
    </div>
  )
}

const W = 560
const H = 240
// The right pad holds half of the last month's label, which is centred on its point.
const pad = { left: 40, right: 28, top: 12, bottom: 36 }

/** Room for a bar's label, left of the bar. */
const labelWidth = 200

let canvas: CanvasRenderingContext2D | null | undefined
/** The drawn width of a text in the font of `el`, in the chart's units (its font size is in them too). */
function measurer(el: SVGTextElement): ((s: string) => number) | null {
  canvas ??= document.createElement('canvas').getContext('2d')
  if (!canvas) return null
  const style = getComputedStyle(el)
  const ctx = canvas
  ctx.font = `${style.fontStyle} ${style.fontWeight} ${style.fontSize} ${style.fontFamily}`
  return (s) => ctx.measureText(s).width
}

/**
 * A label that ends at `x`, cut to the room left of it, as the font draws it, and saying so; its
 * `kept` end (a center's code) is never cut; the whole text is its tooltip.
 */
function Clipped({ text, kept = '', x, y }: { text: string; kept?: string; x: number; y: number }) {
  const ref = useRef<SVGTextElement>(null)
  const [shown, setShown] = useState(text + kept)
  useLayoutEffect(() => {
    const measure = ref.current && measurer(ref.current)
    if (measure) setShown(clipToWidth(text, x - measure(kept), measure) + kept)
  }, [text, kept, x])
  return (
    <text ref={ref} className="label" x={x} y={y} textAnchor="end">
      {shown}
      <title>{text + kept}</title>
    </text>
  )
}

/** Cumulative enrolment per month as a line, the planned quantity (when given) as a dashed line. */
function EnrolmentChart({ months, planned }: { months: MonthRow[]; planned: number | null }) {
  const t = useT()
  const ticks = niceTicks(Math.max(planned ?? 0, months.at(-1)?.cumulative ?? 0))
  const top = ticks.at(-1)!
  const x = (i: number) => pad.left + (months.length <= 1 ? 0 : (i / (months.length - 1)) * (W - pad.left - pad.right))
  const y = (n: number) => H - pad.bottom - (n / top) * (H - pad.top - pad.bottom)
  const every = Math.max(1, Math.ceil(months.length / 8))
  const cumulative = `${t('followUp.progress.cumulative')}: ${months.map((m) => `${m.month} ${m.cumulative}`).join(', ')}`
  const summary = planned === null ? cumulative : `${cumulative}; ${t('followUp.progress.planned')} ${planned}`
  return (
    <>
      <svg viewBox={`0 0 ${W} ${H}`} role="img" aria-label={summary} data-testid="progress-enrolment-chart">
        {ticks.map((n) => (
          <g key={n}>
            <line className="grid" x1={pad.left} x2={W - pad.right} y1={y(n)} y2={y(n)} />
            <text className="label" x={pad.left - 4} y={y(n) + 4} textAnchor="end">
              {n}
            </text>
          </g>
        ))}
        <line className="axis" x1={pad.left} x2={W - pad.right} y1={H - pad.bottom} y2={H - pad.bottom} />
        {planned !== null && (
          <line className="plan" x1={pad.left} x2={W - pad.right} y1={y(planned)} y2={y(planned)} data-testid="progress-plan-line" />
        )}
        <polyline className="line" points={months.map((m, i) => `${x(i)},${y(m.cumulative)}`).join(' ')} />
        {months.map((m, i) => (
          <g key={m.month}>
            <circle cx={x(i)} cy={y(m.cumulative)} r={3} fill="#2d72d2">
              <title>{`${m.month}: ${m.cumulative}`}</title>
            </circle>
            {i % every === 0 && (
              <text className="label" x={x(i)} y={H - pad.bottom + 16} textAnchor="middle">
                {m.month}
              </text>
            )}
          </g>
        ))}
      </svg>
      <div className="progress-legend">
        <span>
          <span className="progress-swatch" style={{ background: '#2d72d2' }} />
          {t('followUp.progress.cumulative')}
        </span>
        {planned !== null && (
          <span>
            <span className="progress-swatch" style={{ background: '#c87619' }} />
            {t('followUp.progress.planned')} {planned}
          </span>
        )}
      </div>
    </>
  )
}

/** One horizontal bar per center. */
function CenterChart({ view }: { view: ProgressView }) {
  const lang = useLang()
  const cell = crossTable(view)
  const rows = view.centers.map((c, i) => ({ c, n: cell(c.id, null), colour: palette[i % palette.length]! }))
  const top = niceTicks(Math.max(...rows.map((r) => r.n), 1)).at(-1)!
  const bar = 22
  const height = pad.top + rows.length * (bar + 8) + 8
  const label = labelWidth
  const name = (c: ProgressView['centers'][number]) => bilingual(c.nameZh, c.nameEn, lang)
  return (
    <svg
      viewBox={`0 0 ${W} ${height}`}
      role="img"
      aria-label={rows.map((r) => `${name(r.c)} (${r.c.code}) ${r.n}`).join(', ')}
      data-testid="progress-center-chart"
    >
      {rows.map((r, i) => {
        const y = pad.top + i * (bar + 8)
        const w = (r.n / top) * (W - label - 60)
        return (
          <g key={r.c.id}>
            <Clipped text={name(r.c)} kept={` (${r.c.code})`} x={label - 6} y={y + bar / 2 + 4} />
            <rect x={label} y={y} width={Math.max(w, 1)} height={bar} fill={r.colour} rx={2} />
            <text className="label" x={label + w + 6} y={y + bar / 2 + 4}>
              {r.n}
            </text>
          </g>
        )
      })}
    </svg>
  )
}

function Tables({ view, months }: { view: ProgressView; months: MonthRow[] }) {
  const t = useT()
  const lang = useLang()
  const cell = crossTable(view)
  return (
    <div className="progress-charts">
      <section aria-labelledby="progress-by-center">
        <H4 id="progress-by-center">{t('followUp.progress.byCenterQueue')}</H4>
        <HTMLTable compact striped className="progress-table" data-testid="progress-by-center">
          <thead>
            <tr>
              <th>{t('followUp.column.center')}</th>
              {view.queues.map((q) => (
                <th key={q.id}>{q.name}</th>
              ))}
              <th>{t('followUp.progress.total')}</th>
            </tr>
          </thead>
          <tbody>
            {view.centers.map((c) => (
              <tr key={c.id}>
                <td>{`${bilingual(c.nameZh, c.nameEn, lang)} (${c.code})`}</td>
                {view.queues.map((q) => (
                  <td key={q.id}>{cell(c.id, q.id)}</td>
                ))}
                <td>{cell(c.id, null)}</td>
              </tr>
            ))}
            <tr>
              <th>{t('followUp.progress.total')}</th>
              {view.queues.map((q) => (
                <th key={q.id}>{queueTotal(view, q.id)}</th>
              ))}
              <th>{view.enrolled}</th>
            </tr>
          </tbody>
        </HTMLTable>
      </section>
      <section aria-labelledby="progress-by-month">
        <H4 id="progress-by-month">{t('followUp.progress.byMonth')}</H4>
        <HTMLTable compact striped className="progress-table" data-testid="progress-by-month">
          <thead>
            <tr>
              <th>{t('followUp.progress.month')}</th>
              {view.centers.map((c) => (
                <th key={c.id}>{c.code}</th>
              ))}
              <th>{t('followUp.progress.total')}</th>
              <th>{t('followUp.progress.cumulative')}</th>
            </tr>
          </thead>
          <tbody>
            {months.map((m) => (
              <tr key={m.month}>
                <td>{m.month}</td>
                {view.centers.map((c) => (
                  <td key={c.id}>{m.byCenter.get(c.id) ?? 0}</td>
                ))}
                <td>{m.count}</td>
                <td>{m.cumulative}</td>
              </tr>
            ))}
          </tbody>
        </HTMLTable>
      </section>
    </div>
  )
}

/** A bar per CRF (its completed share) and the table of its counts. */
function Completion({ view }: { view: ProgressView }) {
  const t = useT()
  const rated = view.forms.map((f) => ({ f, rate: completion(f) }))
  const bar = 18
  const label = labelWidth
  const height = pad.top + rated.length * (bar + 8) + 8
  const kind = (c: string) => (hasKey(`template.collectType.${c}`) ? t(`template.collectType.${c}`) : c)
  // Said where the chart draws —: a sample CRF is counted per sample, another may expect nothing.
  const rateText = (f: ProgressView['forms'][number], rate: number | null) =>
    rate !== null ? `${rate}%` : t(f.expected === null ? 'followUp.progress.perSample' : 'followUp.progress.noneExpected')
  const basis = (f: ProgressView['forms'][number]) => t(`followUp.progress.basis.${f.basis}`, [view.today])
  return (
    <>
      <svg
        viewBox={`0 0 ${W} ${height}`}
        role="img"
        aria-label={rated.map(({ f, rate }) => `${f.name} ${rateText(f, rate)}`).join(', ')}
        data-testid="progress-completion-chart"
      >
        {rated.map(({ f, rate }, i) => {
          const y = pad.top + i * (bar + 8)
          const full = W - label - 60
          return (
            <g key={f.templateId} className={rate === null ? undefined : `progress-rate-${rateBand(rate)}`}>
              <Clipped text={f.name} x={label - 6} y={y + bar / 2 + 4} />
              <rect x={label} y={y} width={full} height={bar} fill="#edeff2" rx={2} />
              {rate !== null && <rect x={label} y={y} width={(rate / 100) * full} height={bar} fill="currentColor" rx={2} />}
              <text className="label" x={label + full + 6} y={y + bar / 2 + 4}>
                {rate === null ? '—' : `${rate}%`}
              </text>
            </g>
          )
        })}
      </svg>
      <HTMLTable compact striped className="progress-table" data-testid="progress-forms">
        <thead>
          <tr>
            <th>{t('followUp.progress.form')}</th>
            <th>{t('followUp.progress.collectType')}</th>
            <th>{t('followUp.progress.basisColumn')}</th>
            <th>{t('followUp.progress.expected')}</th>
            <th>{t('followUp.progress.saved')}</th>
            <th>{t('followUp.progress.signed')}</th>
            <th>{t('followUp.progress.rate')}</th>
          </tr>
        </thead>
        <tbody>
          {rated.map(({ f, rate }) => (
            <tr key={f.templateId} data-name={f.name}>
              <td>{f.name}</td>
              <td>{kind(f.collectType)}</td>
              <td>{basis(f)}</td>
              <td>{f.expected ?? '—'}</td>
              <td>{f.saved}</td>
              <td>{f.signed}</td>
              <td className={rate === null ? undefined : `progress-rate-${rateBand(rate)}`}>{rate === null ? '—' : `${rate}%`}</td>
            </tr>
          ))}
        </tbody>
      </HTMLTable>
    </>
  )
}
