import { useState } from 'react'
import { Button, Card, FormGroup, H3, H4, HTMLTable, InputGroup, NonIdealState, Spinner, Tag, TextArea } from '@blueprintjs/core'
import { HTMLSelect } from '../../ui/HTMLSelect.tsx'
import { projectLimits, type Application, type OpenProject } from '../../../contract/projects.ts'
import { paramsOf } from '../../../contract/screenPaths.ts'
import { useApi } from '../../api/query.ts'
import { useLang, useT } from '../../i18n/useT.ts'
import { bilingual } from '../../../contract/bilingual.ts'
import { formatTime } from '../../lib/time.ts'
import { useCommandHost } from '../../ui/commandHost.tsx'
import { useSettled } from '../../ui/useSettled.ts'
import { listMyApplications } from './api/listMyApplications.ts'
import { listOpenProjects } from './api/listOpenProjects.ts'
import { roleLabel } from './labels.ts'
import './projectList.css'
import { BusyButton } from '../../ui/BusyButton.tsx'

const typingDelay = 300

const decisionIntent = { pending: 'warning', approved: 'success', refused: 'danger' } as const

/**
 * Applying to join a project (SPEC §2 multi-apply; issue 9 item 5): the active projects the user
 * is not a member of, searched by name or number; the chosen one takes a wished role and a reason;
 * below, the user's own applications with their status and the decision.
 */
export default function ProjectApplyPage({ path = '' }: { path?: string }) {
  const t = useT()
  const lang = useLang()
  const [chosenId, setChosenId] = useState<number | undefined>(() => paramsOf('multiApply', path)?.id)
  const [text, setText] = useState('')
  const q = useSettled(text, typingDelay).trim()
  const open = useApi(['projects', 'open', q], (signal) => listOpenProjects(q || undefined, { signal }))
  const mine = useApi(['projects', 'mine'], (signal) => listMyApplications({ signal }))
  const chosen = open.data?.find((p) => p.id === chosenId)
  const disease = (p: OpenProject) => (p.diseaseName ? bilingual(p.diseaseName, p.diseaseNameEn ?? '', lang) : '')

  return (
    <div className="project-apply" data-testid="project-apply">
      <div className="dict-header">
        <H3>{t('projects.apply.title')}</H3>
      </div>
      <div className="project-apply-grid">
        <section aria-labelledby="apply-open">
          <H4 id="apply-open">{t('projects.apply.open')}</H4>
          <InputGroup
            leftIcon="search"
            type="search"
            placeholder={t('projects.apply.search')}
            aria-label={t('projects.apply.search')}
            data-testid="apply-search"
            value={text}
            onValueChange={setText}
          />
          {open.data === undefined ? (
            open.loading ? (
              <Spinner size={20} />
            ) : null
          ) : open.data.length === 0 ? (
            <NonIdealState icon="projects" title={t('projects.apply.empty')} />
          ) : (
            <ul className="project-apply-list" data-testid="apply-open-list">
              {open.data.map((p) => (
                <li key={p.id}>
                  <Button
                    variant={p.id === chosenId ? 'solid' : 'minimal'}
                    intent={p.id === chosenId ? 'primary' : 'none'}
                    alignText="start"
                    fill
                    aria-pressed={p.id === chosenId}
                    data-testid={`apply-choose-${p.number}`}
                    onClick={() => setChosenId(p.id)}
                  >
                    <span className="project-apply-name">
                      {p.number} · {p.name}
                    </span>
                    <span className="project-apply-sub">
                      {t(`projects.scopes.${p.scope}`)}
                      {disease(p) && ` · ${disease(p)}`}
                    </span>
                  </Button>
                  {p.pendingApplicationId !== null && (
                    <Tag minimal intent="warning">
                      {t('projects.applicationStatuses.pending')}
                    </Tag>
                  )}
                </li>
              ))}
            </ul>
          )}
        </section>
        <section aria-labelledby="apply-form">
          <H4 id="apply-form">{chosen ? t('projects.apply.chosen', [chosen.name]) : t('projects.apply.title')}</H4>
          {chosen ? <ApplyForm key={chosen.id} project={chosen} /> : <p className="bp6-text-muted">{t('projects.apply.pickProject')}</p>}
        </section>
      </div>
      <section aria-labelledby="apply-mine">
        <H4 id="apply-mine">{t('projects.apply.mine')}</H4>
        {mine.data === undefined ? (
          mine.loading ? (
            <Spinner size={20} />
          ) : null
        ) : mine.data.length === 0 ? (
          <p className="bp6-text-muted">{t('projects.apply.mineEmpty')}</p>
        ) : (
          <MyApplications rows={mine.data} />
        )}
      </section>
    </div>
  )
}

function ApplyForm({ project }: { project: OpenProject }) {
  const t = useT()
  const host = useCommandHost()
  const [roleId, setRoleId] = useState<number | null>(null)
  const [reason, setReason] = useState('')
  const [touched, setTouched] = useState(false)
  const [busy, setBusy] = useState(false)
  const trimmed = reason.trim()
  const error =
    trimmed === ''
      ? t('projects.apply.reasonRequired')
      : trimmed.length > projectLimits.reason
        ? t('projects.reason.tooLong', [projectLimits.reason])
        : null

  if (project.pendingApplicationId !== null) {
    return (
      <Card data-testid="apply-pending">
        <Tag intent="warning">{t('projects.apply.pending')}</Tag>
      </Card>
    )
  }
  return (
    <form
      className="project-apply-form"
      data-testid="apply-form"
      onSubmit={(e) => {
        e.preventDefault()
        setTouched(true)
        if (error) return
        setBusy(true)
        void host.run('projects.apply', 'button', { id: project.id, roleId, reason: trimmed }).finally(() => setBusy(false))
      }}
    >
      <FormGroup label={t('projects.apply.role')} labelFor="apply-role">
        <HTMLSelect
          id="apply-role"
          data-testid="apply-role"
          value={roleId === null ? '' : String(roleId)}
          onChange={(e) => setRoleId(e.currentTarget.value ? Number(e.currentTarget.value) : null)}
          options={[
            { value: '', label: t('projects.apply.anyRole') },
            ...project.roles.map((r) => ({ value: String(r.id), label: roleLabel(r.name, t) })),
          ]}
        />
      </FormGroup>
      <FormGroup
        label={t('projects.apply.reason')}
        labelFor="apply-reason"
        labelInfo="*"
        intent={touched && error ? 'danger' : 'none'}
        helperText={touched && error ? error : undefined}
      >
        <TextArea
          id="apply-reason"
          fill
          rows={4}
          value={reason}
          intent={touched && error ? 'danger' : 'none'}
          data-testid="apply-reason"
          onChange={(e) => setReason(e.currentTarget.value)}
        />
      </FormGroup>
      <BusyButton
        type="submit"
        intent="primary"
        icon="send-message"
        text={t('projects.apply.submit')}
        loading={busy}
        data-testid="apply-submit"
      />
    </form>
  )
}

function MyApplications({ rows }: { rows: readonly Application[] }) {
  const t = useT()
  const lang = useLang()
  return (
    <HTMLTable compact striped className="project-table" data-testid="apply-mine-list">
      <thead>
        <tr>
          <th>{t('projects.apply.project')}</th>
          <th>{t('projects.apply.role')}</th>
          <th>{t('projects.apply.reason')}</th>
          <th>{t('projects.apply.createdAt')}</th>
          <th>{t('projects.apply.status')}</th>
          <th>{t('projects.apply.decidedBy')}</th>
          <th>{t('projects.apply.decisionReason')}</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((a) => (
          <tr key={a.id} data-status={a.status}>
            <td>{a.projectName}</td>
            <td>{a.roleName === null ? t('projects.apply.anyRole') : roleLabel(a.roleName, t)}</td>
            <td className="project-text">{a.reason}</td>
            <td>{formatTime(a.createdAt, '{y}-{m}-{d} {h}:{i}', lang)}</td>
            <td>
              <Tag minimal intent={decisionIntent[a.status]}>
                {t(`projects.applicationStatuses.${a.status}`)}
              </Tag>
            </td>
            <td>{a.decidedBy ?? ''}</td>
            <td className="project-text">{a.decisionReason}</td>
          </tr>
        ))}
      </tbody>
    </HTMLTable>
  )
}
