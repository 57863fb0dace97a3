import { useCallback, useMemo, useState } from 'react'
import { Button, Callout, FormGroup, H4, HTMLTable, InputGroup, Switch, Tag } from '@blueprintjs/core'
import { HTMLSelect } from '../../ui/HTMLSelect.tsx'
import { randomMethods, type ProjectDetail } from '../../../contract/projects.ts'
import { randomizationLimits, type AllocationRow, type FullPlan } from '../../../contract/randomization.ts'
import { useApi, useReloadKey } from '../../api/query.ts'
import { useLang, useT } from '../../i18n/useT.ts'
import { bilingual } from '../../../contract/bilingual.ts'
import { formatTime } from '../../lib/time.ts'
import { useHolds } from '../../state/session.ts'
import { useCommandHost } from '../../ui/commandHost.tsx'
import { DenseTable, type DenseColumn, type Fetcher } from '../../ui/DenseTable.tsx'
import { useSettled } from '../../ui/useSettled.ts'
import { getRandomization } from './api/getRandomization.ts'
import { listAllocation } from './api/listAllocation.ts'
import { listIndicators } from './api/listIndicators.ts'
import { formOf, inputOf, type FormProblem, type PlanForm } from './randomizationForm.ts'
import { BusyButton } from '../../ui/BusyButton.tsx'
import { NumberTextInput } from '../../ui/NumberTextInput.tsx'

type T = ReturnType<typeof useT>

const problemText = (t: T, p: FormProblem) => t(p.key, p.key === 'validatorMsg.pleaseInput' ? p.params.map((k) => t(String(k))) : p.params)

/**
 * The config tab (SPEC multi-edit "config info"): the randomization plan — method, groups with
 * their ratios, block sizes, strata by center and by choice factors, the seed — and the list
 * generated from it. Members who may not set the project up see the method only (blinded, or
 * kept from the list so that whoever enrols cannot foresee an allocation); once a subject is
 * randomized the plan is shown read-only.
 */
export default function RandomizationTab({ project }: { project: ProjectDetail }) {
  const t = useT()
  const plan = useApi(['projects', 'randomization', project.id], (signal) => getRandomization(project.id, { signal }))
  const view = plan.data
  if (!view) return <div data-testid="randomization-tab" />
  if (view.access !== 'full') {
    return (
      <Callout intent="primary" icon="eye-off" data-testid={`randomization-${view.access}`}>
        {t(`randomization.${view.access}`, [t(`randomization.methods.${view.method}`)])}
      </Callout>
    )
  }
  return (
    <div className="randomization-tab" data-testid="randomization-tab">
      <PlanEditor project={project} plan={view} />
      {view.generatedAt !== null && <AllocationList project={project} plan={view} />}
    </div>
  )
}

function PlanEditor({ project, plan }: { project: ProjectDetail; plan: FullPlan }) {
  const t = useT()
  const lang = useLang()
  const host = useCommandHost()
  const [form, setForm] = useState<PlanForm>(() => formOf(plan))
  // A new plan from the server starts the form afresh, in the same elements: a save keeps the focus.
  const planKey = JSON.stringify(plan)
  const [formOfKey, setFormOfKey] = useState(planKey)
  if (planKey !== formOfKey) {
    setFormOfKey(planKey)
    setForm(formOf(plan))
  }
  const [busy, setBusy] = useState(false)
  const canEdit =
    useHolds('project.edit') && project.status !== 'closed' && (project.me === null || project.me.authorities.includes('configure'))
  const locked = plan.allocated > 0
  const readOnly = !canEdit || locked
  const { input, problems } = inputOf(form)
  const dirty = JSON.stringify(form) !== JSON.stringify(formOf(plan))
  const set = (patch: Partial<PlanForm>) => setForm((f) => ({ ...f, ...patch }))
  const setGroup = (i: number, patch: Partial<PlanForm['groups'][number]>) =>
    set({ groups: form.groups.map((g, j) => (j === i ? { ...g, ...patch } : g)) })

  const save = async () => {
    setBusy(true)
    await host.run('project.saveRandomization', 'button', { id: project.id, plan: input })
    setBusy(false)
  }
  const generate = async () => {
    setBusy(true)
    await host.run('project.generateAllocation', 'button', { id: project.id, replace: plan.generatedAt !== null })
    setBusy(false)
  }
  const randomized = form.method !== 'none'
  const stratified = form.method === 'stratified'

  return (
    <section className="randomization-plan" aria-labelledby="randomization-title">
      <H4 id="randomization-title">{t('randomization.title')}</H4>
      {locked && (
        <Callout intent="warning" icon="lock" data-testid="randomization-locked">
          {t('randomization.locked', [plan.allocated])}
        </Callout>
      )}
      {!plan.saved && <p className="bp6-text-muted">{t('randomization.notSaved')}</p>}
      <FormGroup label={t('randomization.method')} labelFor="randomization-method">
        <HTMLSelect
          id="randomization-method"
          data-testid="randomization-method"
          disabled={readOnly}
          value={form.method}
          onChange={(e) => set({ method: e.currentTarget.value as PlanForm['method'] })}
          options={randomMethods.map((m) => ({ value: m, label: t(`randomization.methods.${m}`) }))}
        />
      </FormGroup>

      {randomized && (
        <FormGroup label={t('randomization.groups')}>
          <HTMLTable compact className="randomization-groups" data-testid="randomization-groups">
            <thead>
              <tr>
                <th>{t('randomization.groupCode')}</th>
                <th>{t('randomization.groupName')}</th>
                <th>{t('randomization.ratio')}</th>
                <th aria-label={t('randomization.actions')} />
              </tr>
            </thead>
            <tbody>
              {form.groups.map((g, i) => (
                <tr key={i}>
                  <td>
                    <InputGroup
                      aria-label={`${t('randomization.groupCode')} ${i + 1}`}
                      data-testid={`group-code-${i}`}
                      maxLength={randomizationLimits.groupCode}
                      disabled={readOnly}
                      value={g.code}
                      onValueChange={(code) => setGroup(i, { code })}
                    />
                  </td>
                  <td>
                    <InputGroup
                      aria-label={`${t('randomization.groupName')} ${i + 1}`}
                      data-testid={`group-name-${i}`}
                      maxLength={randomizationLimits.groupName}
                      disabled={readOnly}
                      value={g.name}
                      onValueChange={(name) => setGroup(i, { name })}
                    />
                  </td>
                  <td>
                    <NumberTextInput
                      aria-label={`${t('randomization.ratio')} ${i + 1}`}
                      data-testid={`group-ratio-${i}`}
                      min={0}
                      max={randomizationLimits.ratio}
                      disabled={readOnly}
                      intent={!readOnly && g.ratio.trim() === '' ? 'danger' : 'none'}
                      value={g.ratio}
                      onValueChange={(ratio) => setGroup(i, { ratio })}
                    />
                  </td>
                  <td>
                    <Button
                      variant="minimal"
                      icon="trash"
                      disabled={readOnly}
                      aria-label={t('randomization.removeGroup', [g.code])}
                      title={t('randomization.removeGroup', [g.code])}
                      onClick={() => set({ groups: form.groups.filter((_, j) => j !== i) })}
                    />
                  </td>
                </tr>
              ))}
            </tbody>
          </HTMLTable>
          <Button
            icon="plus"
            variant="minimal"
            text={t('randomization.addGroup')}
            data-testid="group-add"
            disabled={readOnly || form.groups.length >= randomizationLimits.groups}
            onClick={() => set({ groups: [...form.groups, { code: '', name: '', ratio: '1' }] })}
          />
        </FormGroup>
      )}

      {stratified && (
        <>
          <FormGroup label={t('randomization.blockSizes')} labelFor="randomization-blocks" helperText={t('randomization.blockSizesHint')}>
            <InputGroup
              id="randomization-blocks"
              data-testid="randomization-blocks"
              disabled={readOnly}
              value={form.blockSizes}
              onValueChange={(blockSizes) => set({ blockSizes })}
            />
          </FormGroup>
          <Switch
            label={t('randomization.strataByCenter')}
            data-testid="randomization-by-center"
            disabled={readOnly}
            checked={form.strataByCenter}
            onChange={(e) => set({ strataByCenter: e.currentTarget.checked })}
          />
          <FactorPicker form={form} readOnly={readOnly} onChange={(factors) => set({ factors })} />
        </>
      )}

      {randomized && (
        <>
          <FormGroup
            label={t('randomization.listSize')}
            labelFor="randomization-list-size"
            helperText={t('randomization.listSizeHint', [project.plannedQuantity])}
          >
            <InputGroup
              id="randomization-list-size"
              data-testid="randomization-list-size"
              inputMode="numeric"
              disabled={readOnly}
              placeholder={String(project.plannedQuantity)}
              value={form.listSize}
              onValueChange={(listSize) => set({ listSize })}
            />
          </FormGroup>
          <FormGroup label={t('randomization.seed')} labelFor="randomization-seed" helperText={t('randomization.seedHint')}>
            <InputGroup
              id="randomization-seed"
              data-testid="randomization-seed"
              maxLength={randomizationLimits.seed}
              disabled={readOnly}
              value={form.seed}
              onValueChange={(seed) => set({ seed })}
            />
          </FormGroup>
        </>
      )}

      {!readOnly && problems.length > 0 && (
        <Callout intent="danger" data-testid="randomization-problems">
          <ul>
            {problems.map((p, i) => (
              <li key={i}>{problemText(t, p)}</li>
            ))}
          </ul>
        </Callout>
      )}

      <div className="randomization-actions">
        {!readOnly && (
          <BusyButton
            intent="primary"
            icon="floppy-disk"
            text={t('randomization.save')}
            data-testid="randomization-save"
            loading={busy}
            disabled={problems.length > 0 || (!dirty && plan.saved)}
            focusableWhenDisabled
            onClick={() => void save()}
          />
        )}
        {!readOnly && plan.saved && plan.method !== 'none' && (
          <BusyButton
            icon="random"
            text={t(plan.generatedAt === null ? 'randomization.generate' : 'randomization.regenerate')}
            data-testid="randomization-generate"
            loading={busy}
            disabled={dirty}
            onClick={() => void generate()}
          />
        )}
        <span className="bp6-text-muted" data-testid="randomization-generated-at">
          {plan.generatedAt === null
            ? t('randomization.noList')
            : t('randomization.generatedAt', [formatTime(plan.generatedAt, '{y}-{m}-{d} {h}:{i}', lang) ?? ''])}
        </span>
      </div>
    </section>
  )
}

/** Single choice indicators of the dictionary, searched by code or name prefix. */
function FactorPicker({ form, readOnly, onChange }: { form: PlanForm; readOnly: boolean; onChange(f: PlanForm['factors']): void }) {
  const t = useT()
  const lang = useLang()
  const [q, setQ] = useState('')
  const settled = useSettled(q, 300)
  const [picked, setPicked] = useState('')
  // The dictionary answers only those who may read it; others keep the factors they have.
  const readsDictionary = useHolds('dictionary.view')
  const readsTemplates = useHolds('template.view')
  const canSearch = readsDictionary || readsTemplates
  const found = useApi(
    ['indicators', 'randomizationFactors', settled],
    (signal) => listIndicators({ type: 'single', status: 1, q: settled.trim() || undefined, limit: 20 }, { signal }),
    { enabled: !readOnly && canSearch },
  )
  const chosen = new Set(form.factors.map((f) => f.indicatorId))
  const options = (found.data?.rows ?? []).filter((r) => !chosen.has(r.id) && r.options.length > 0)
  const pick = options.find((r) => String(r.id) === picked) ?? options[0]
  const full = form.factors.length >= randomizationLimits.factors

  return (
    <FormGroup label={t('randomization.factors')}>
      <div className="randomization-factors" data-testid="randomization-factors">
        {form.factors.length === 0 && <span className="bp6-text-muted">{t('randomization.noFactors')}</span>}
        {form.factors.map((f) => (
          <Tag
            key={f.indicatorId}
            minimal
            onRemove={readOnly ? undefined : () => onChange(form.factors.filter((x) => x.indicatorId !== f.indicatorId))}
            data-testid={`factor-${f.code}`}
          >
            {`${f.code} ${bilingual(f.nameZh, f.nameEn, lang)}`}
          </Tag>
        ))}
      </div>
      {!readOnly && canSearch && !full && (
        <div className="randomization-factor-pick">
          <InputGroup
            type="search"
            leftIcon="search"
            aria-label={t('randomization.factorSearch')}
            placeholder={t('randomization.factorSearch')}
            data-testid="factor-search"
            value={q}
            onValueChange={setQ}
          />
          <HTMLSelect
            aria-label={t('randomization.factorPick')}
            data-testid="factor-select"
            disabled={options.length === 0}
            value={pick ? String(pick.id) : ''}
            onChange={(e) => setPicked(e.currentTarget.value)}
            options={options.map((r) => ({ value: String(r.id), label: `${r.code} ${bilingual(r.nameZh, r.nameEn, lang)}` }))}
          />
          <Button
            icon="plus"
            text={t('randomization.addFactor')}
            data-testid="factor-add"
            disabled={!pick}
            onClick={() => {
              if (!pick) return
              onChange([...form.factors, { indicatorId: pick.id, code: pick.code, nameZh: pick.nameZh, nameEn: pick.nameEn }])
              setPicked('')
            }}
          />
        </div>
      )}
    </FormGroup>
  )
}

/** The stratum as people read it: the center's code and each factor's choice label. */
function useStratumLabel(project: ProjectDetail, plan: FullPlan) {
  const t = useT()
  const lang = useLang()
  return useMemo(() => {
    const centers = new Map(project.centers.map((c) => [c.id, c]))
    const factors = new Map(plan.factors.map((f) => [f.indicatorId, f]))
    const labels = new Map(
      plan.strata.map((s) => {
        const parts = s.centerId === null ? [] : [centers.get(s.centerId)?.code ?? `#${s.centerId}`]
        for (const v of s.values) {
          const f = factors.get(v.indicatorId)
          const c = f?.choices.find((x) => x.code === v.code)
          parts.push(`${f ? bilingual(f.nameZh, f.nameEn, lang) : v.indicatorId}=${c ? bilingual(c.labelZh, c.labelEn, lang) : v.code}`)
        }
        return [s.key, parts.join(' · ')]
      }),
    )
    return (key: string) => (key === '' ? t('randomization.noStrata') : (labels.get(key) ?? key))
  }, [project.centers, plan.factors, plan.strata, lang, t])
}

function AllocationList({ project, plan }: { project: ProjectDetail; plan: FullPlan }) {
  const t = useT()
  const lang = useLang()
  const [stratum, setStratum] = useState<string | undefined>(undefined)
  const reloadKey = useReloadKey('projects')
  const label = useStratumLabel(project, plan)
  const fetchPage: Fetcher<AllocationRow> = useCallback(
    (after, limit, signal) => listAllocation(project.id, { stratum, after: after ?? undefined, limit }, { signal }),
    [project.id, stratum],
  )
  const columns = useMemo<DenseColumn<AllocationRow>[]>(
    () => [
      { id: 'seq', header: 'randomization.column.seq', width: 70, fixed: true, render: (r) => r.seq },
      { id: 'stratum', header: 'randomization.column.stratum', width: 200, render: (r) => label(r.stratum) },
      { id: 'block', header: 'randomization.column.block', width: 70, render: (r) => (r.block === 0 ? '' : r.block) },
      { id: 'blockSize', header: 'randomization.column.blockSize', width: 90, render: (r) => (r.blockSize === 0 ? '' : r.blockSize) },
      { id: 'group', header: 'randomization.column.group', width: 160, render: (r) => `${r.groupCode} ${r.groupName}` },
      {
        id: 'subject',
        header: 'randomization.column.subject',
        width: 180,
        // An entry taken by a subject outside the caller's centers comes without the subject.
        render: (r) => r.subjectNo ?? (r.allocatedAt ? t('randomization.takenElsewhere') : ''),
      },
      {
        id: 'allocatedAt',
        header: 'randomization.column.allocatedAt',
        width: 150,
        render: (r) => (r.allocatedAt ? (formatTime(r.allocatedAt, '{y}-{m}-{d} {h}:{i}', lang) ?? '') : ''),
      },
    ],
    [label, lang, t],
  )
  // '*' stands for every stratum: no stratum key is '*' ('' or e.g. 'c3|sex=1').
  const filter = (
    <HTMLSelect
      aria-label={t('randomization.strata')}
      data-testid="allocation-stratum"
      value={stratum ?? '*'}
      onChange={(e) => setStratum(e.currentTarget.value === '*' ? undefined : e.currentTarget.value)}
      options={[
        { value: '*', label: t('randomization.allStrata') },
        ...plan.strata.map((s) => ({
          value: s.key,
          label: `${label(s.key)} (${t('randomization.stratumEntries', [s.entries, s.allocated])})`,
        })),
      ]}
    />
  )
  return (
    <section className="randomization-list" aria-label={t('randomization.list')}>
      <H4>{t('randomization.list')}</H4>
      <DenseTable<AllocationRow>
        testId="allocation-table"
        columns={columns}
        identifier="seq"
        fetchPage={fetchPage}
        queryKey={stratum ?? ''}
        reloadKey={reloadKey}
        sort={{ key: 'seq', order: 'asc' }}
        onSort={() => undefined}
        filters={filter}
        emptyText={t('randomization.listEmpty')}
      />
    </section>
  )
}
