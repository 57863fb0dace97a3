import { useState, type ReactNode } from 'react'
import {
  Button,
  Callout,
  DialogBody,
  DialogFooter,
  FormGroup,
  H3,
  H4,
  HTMLTable,
  Menu,
  MenuDivider,
  MenuItem,
  NonIdealState,
  Popover,
  Spinner,
  Tag,
  TextArea,
} from '@blueprintjs/core'
import { Dialog } from '../../ui/Dialog.tsx'
import { projectReasonDialog } from '../../../commands/projects.ts'
import { projectLimits, type ProjectDetail } from '../../../contract/projects.ts'
import { paramsOf } from '../../../contract/screenPaths.ts'
import { useApi } from '../../api/query.ts'
import { hasKey } from '../../i18n/index.ts'
import { useLang, useT } from '../../i18n/useT.ts'
import { bilingual } from '../../../contract/bilingual.ts'
import { formatTime } from '../../lib/time.ts'
import { useCurrentProject } from '../../state/currentProject.ts'
import { closeDialog, useDialog } from '../../state/dialogs.ts'
import { usePublish } from '../../state/focus.ts'
import { useCommandHost } from '../../ui/commandHost.tsx'
import { CommandButton, CommandMenuItem } from '../../ui/CommandButton.tsx'
import { getProjectHistory } from './api/getProjectHistory.ts'
import { historyActionKey, historyDetail, roleLabel, statusIntent } from './labels.ts'
import { useProject } from './useProject.ts'
import './projectList.css'
import { BusyButton } from '../../ui/BusyButton.tsx'

/** Action menu entries that later issues fill (SPEC §2 project action menu). */
const laterParts = ['statistics'] as const
type LaterPart = (typeof laterParts)[number]

/**
 * A project's detail (SPEC §2 multi-detail; issue 9 item 3): every field with its option labels
 * in the reader's language, the status and its reason, the queues and centers the reader may see,
 * the pinned forms, the audit and change history, SPEC's action menu (research object opens the
 * research object list; the others say they come later), the audit buttons and the edit button.
 */
export default function ProjectDetailPage({ path = '' }: { path?: string }) {
  const t = useT()
  const id = paramsOf('multiDetail', path)?.id ?? 0
  const loaded = useProject(id)
  const project = loaded.data
  usePublish(path, project ? { kind: 'project', id: project.id, name: project.name } : undefined)

  if (!project) {
    if (loaded.loading) return <Spinner className="view-spinner" />
    return <NonIdealState icon="error" title={t('message.loadError')} />
  }
  return <Detail project={project} />
}

function Detail({ project: p }: { project: ProjectDetail }) {
  const t = useT()
  const lang = useLang()
  const host = useCommandHost()
  const current = useCurrentProject()
  const [later, setLater] = useState<LaterPart | null>(null)
  const history = useApi(['projects', 'history', p.id], (signal) => getProjectHistory(p.id, { signal }))
  const reasonRequest = useDialog(projectReasonDialog)
  const isCurrent = current?.id === p.id
  // A member acts by their project role; a system administrator or an auditor has no membership (the server decides).
  const configures = p.me === null || p.me.authorities.includes('configure')
  const args = { id: p.id }

  const facts: [string, ReactNode][] = [
    ['projects.field.scope', t(`projects.scopes.${p.scope}`)],
    ['projects.field.type', t(`projects.types.${p.type}`)],
    ['projects.field.number', p.number],
    ['projects.field.testStage', p.testStage ? t(`projects.testStages.${p.testStage}`) : t('projects.none')],
    ['projects.field.groupNumber', p.groupNumber || t('projects.none')],
    ['projects.field.manageBiomaterial', t(p.manageBiomaterial ? 'projects.yes' : 'projects.no')],
    ['projects.field.groupType', t(`projects.groupTypes.${p.groupType}`)],
    ['projects.field.disease', p.diseaseName ? bilingual(p.diseaseName, p.diseaseNameEn ?? '', lang) : t('projects.none')],
    ['projects.field.blinded', t(`projects.blindedSets.${p.blinded}`)],
    ['projects.field.randomMethod', t(`projects.randomMethods.${p.randomMethod}`)],
    ['projects.field.plannedQuantity', p.plannedQuantity],
    ['projects.field.plannedGroups', p.plannedGroups],
    ['projects.field.therapyTime', p.therapyTime || t('projects.none')],
    ['projects.field.followUpTime', p.followUpTime || t('projects.none')],
    ['projects.field.subjects', t('projects.list.enrolled', [p.subjectCount, p.plannedQuantity])],
    ['projects.field.creator', p.creatorName ?? t('projects.none')],
    ['projects.field.createdAt', formatTime(p.createdAt, undefined, lang) ?? ''],
    ['projects.field.updatedAt', formatTime(p.updatedAt, undefined, lang) ?? ''],
    ['projects.field.myRole', p.me ? roleLabel(p.me.roleName, t) : t('projects.none')],
  ]

  const menu = (
    <Menu aria-label={t('projects.detail.actions')}>
      <CommandMenuItem id="subjectList.open" args={{ studyId: p.id }} icon="people" label={t('projects.detail.researchObject')} />
      <CommandMenuItem id="followUp.open" icon="calendar" label={t('projects.detail.followUp')} args={args} />
      <CommandMenuItem id="followUp.openProgress" icon="timeline-bar-chart" label={t('projects.detail.progress')} args={args} />
      <CommandMenuItem id="dataLoad.open" icon="import" label={t('dataLoad.menu')} args={args} />
      {laterParts.map((part) => (
        <MenuItem
          key={part}
          icon="time"
          text={t(`projects.detail.${part}`)}
          data-testid={`project-later-${part}`}
          onClick={() => setLater(part)}
        />
      ))}
      <MenuDivider />
      <CommandMenuItem id="projects.openToSide" icon="add-column-right" args={args} />
    </Menu>
  )

  return (
    <div className="project-detail" data-testid="project-detail" data-status={p.status}>
      <div className="dict-header">
        <div className="project-detail-title">
          <H3>{p.name}</H3>
          <Tag minimal>{p.number}</Tag>
          <Tag intent={statusIntent(p.status)} data-testid="project-detail-status">
            {t(`projects.statuses.${p.status}`)}
          </Tag>
          {isCurrent && (
            <Tag intent="primary" icon="star" data-testid="project-detail-current">
              {t('projects.detail.current')}
            </Tag>
          )}
        </div>
        <div className="dict-header-actions">
          <Popover placement="bottom-end" content={menu}>
            <Button icon="menu" rightIcon="caret-down" text={t('projects.detail.actions')} data-testid="project-menu" />
          </Popover>
          {!isCurrent && (
            <CommandButton
              id="projects.switch"
              icon="star-empty"
              label={t('projects.list.setCurrent')}
              args={{ id: p.id, name: p.name, number: p.number }}
            />
          )}
          {configures && p.status !== 'closed' && <CommandButton id="projects.edit" icon="edit" args={args} />}
        </div>
      </div>

      <div className="project-audit" role="group" aria-label={t('projects.detail.audit')}>
        {configures && p.status === 'draft' && <CommandButton id="projects.submit" icon="send-to" intent="primary" args={args} />}
        {p.status === 'auditing' && (
          <>
            <CommandButton id="projects.pass" icon="tick" intent="success" args={args} />
            <CommandButton id="projects.unpass" icon="cross" intent="warning" args={args} />
          </>
        )}
        {configures && p.status === 'active' && <CommandButton id="projects.close" icon="lock" args={args} />}
        {configures && <CommandButton id="projects.delete" icon="trash" intent="danger" args={args} />}
      </div>

      {p.statusReason && (
        <Callout intent={p.status === 'closed' ? 'none' : 'warning'} title={t('projects.field.statusReason')} data-testid="project-reason">
          {p.statusReason}
        </Callout>
      )}
      {later && (
        <Callout
          intent="primary"
          icon="time"
          title={t('projects.detail.laterTitle', [t(`projects.detail.${later}`)])}
          data-testid="project-later"
        >
          <p>{t('projects.detail.laterHint')}</p>
          <Button size="small" text={t('common.close')} onClick={() => setLater(null)} />
        </Callout>
      )}

      <section aria-labelledby="project-basic">
        <H4 id="project-basic">{t('projects.detail.basic')}</H4>
        <dl className="project-facts" data-testid="project-facts">
          {facts.map(([key, value]) => (
            <div key={key}>
              <dt>{t(key)}</dt>
              <dd>{value}</dd>
            </div>
          ))}
        </dl>
      </section>

      <section aria-labelledby="project-queues">
        <H4 id="project-queues">{t('projects.detail.queues')}</H4>
        {p.queues.length === 0 ? (
          <p className="bp6-text-muted">{t('projects.detail.noQueues')}</p>
        ) : (
          <HTMLTable compact striped className="project-table" data-testid="project-queues">
            <thead>
              <tr>
                <th>{t('projects.detail.queues')}</th>
                <th>{t('projects.detail.queueKey')}</th>
                <th>{t('projects.detail.entryCondition')}</th>
                <th>{t('projects.detail.excludeCondition')}</th>
                <th>{t('projects.field.subjects')}</th>
              </tr>
            </thead>
            <tbody>
              {p.queues.map((q) => (
                <tr key={q.id}>
                  <td>{q.name}</td>
                  <td>{q.key}</td>
                  <td className="project-text">{q.entryCondition}</td>
                  <td className="project-text">{q.excludeCondition}</td>
                  <td>{q.subjectCount}</td>
                </tr>
              ))}
            </tbody>
          </HTMLTable>
        )}
      </section>

      <section aria-labelledby="project-centers">
        <H4 id="project-centers">{t('projects.detail.centers')}</H4>
        {p.centers.length === 0 ? (
          <p className="bp6-text-muted">{t('projects.detail.noCenters')}</p>
        ) : (
          <HTMLTable compact striped className="project-table" data-testid="project-centers">
            <thead>
              <tr>
                <th>{t('projects.detail.centerCode')}</th>
                <th>{t('projects.detail.centerName')}</th>
                <th>{t('projects.detail.region')}</th>
                <th>{t('projects.field.subjects')}</th>
              </tr>
            </thead>
            <tbody>
              {p.centers.map((c) => (
                <tr key={c.id}>
                  <td>{c.code}</td>
                  <td>{bilingual(c.nameZh, c.nameEn, lang)}</td>
                  <td>{c.region}</td>
                  <td>{c.subjectCount}</td>
                </tr>
              ))}
            </tbody>
          </HTMLTable>
        )}
      </section>

      <section aria-labelledby="project-forms">
        <H4 id="project-forms">{t('projects.detail.forms')}</H4>
        {p.forms.length === 0 ? (
          <p className="bp6-text-muted">{t('projects.detail.noForms')}</p>
        ) : (
          <HTMLTable compact striped className="project-table" data-testid="project-forms">
            <thead>
              <tr>
                <th>{t('projects.detail.formName')}</th>
                <th>{t('projects.detail.formKind')}</th>
                <th>{t('projects.detail.version')}</th>
              </tr>
            </thead>
            <tbody>
              {p.forms.map((f) => (
                <tr key={f.templateId}>
                  <td>{f.name}</td>
                  <td>{hasKey(`projects.detail.formKinds.${f.kind}`) ? t(`projects.detail.formKinds.${f.kind}`) : f.kind}</td>
                  <td>
                    v{f.version}
                    {f.latestVersion !== null && (
                      <Tag minimal intent="primary" className="project-newer">
                        {t('projects.detail.newerVersion', [f.latestVersion])}
                      </Tag>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </HTMLTable>
        )}
      </section>

      <section aria-labelledby="project-history">
        <H4 id="project-history">{t('projects.detail.history')}</H4>
        {history.data === undefined ? (
          history.loading ? (
            <Spinner size={20} />
          ) : null
        ) : history.data.length === 0 ? (
          <p className="bp6-text-muted">{t('projects.detail.noHistory')}</p>
        ) : (
          <HTMLTable compact striped className="project-table" data-testid="project-history">
            <thead>
              <tr>
                <th>{t('projects.history.at')}</th>
                <th>{t('projects.history.user')}</th>
                <th>{t('projects.history.action')}</th>
                <th>{t('projects.history.outcome')}</th>
                <th>{t('projects.history.detail')}</th>
              </tr>
            </thead>
            <tbody>
              {history.data.map((h) => (
                <tr key={h.id} data-action={h.action}>
                  <td>{formatTime(h.at, undefined, lang)}</td>
                  <td>{h.username ?? ''}</td>
                  <td>{hasKey(historyActionKey(h.action)) ? t(historyActionKey(h.action)) : h.action}</td>
                  <td>{hasKey(`audit.outcomes.${h.outcome}`) ? t(`audit.outcomes.${h.outcome}`) : h.outcome}</td>
                  <td className="project-text">{historyDetail(h.detail, t)}</td>
                </tr>
              ))}
            </tbody>
          </HTMLTable>
        )}
      </section>

      {reasonRequest && reasonRequest.args.id === p.id && (
        <ReasonDialog
          key={reasonRequest.seq}
          action={reasonRequest.args.action}
          onClose={() => closeDialog(projectReasonDialog)}
          onConfirm={async (reason) => {
            const command = reasonRequest.args.action === 'unpass' ? 'projects.unpass' : 'projects.close'
            const result = await host.run(command, 'button', { id: p.id, reason })
            if (result.ok) closeDialog(projectReasonDialog)
          }}
        />
      )}
    </div>
  )
}

/** Unpass needs a reason (SPEC audit flow); closing takes an optional one. */
function ReasonDialog({
  action,
  onClose,
  onConfirm,
}: {
  action: 'unpass' | 'close'
  onClose: () => void
  onConfirm: (reason: string) => Promise<void>
}) {
  const t = useT()
  const [reason, setReason] = useState('')
  const [touched, setTouched] = useState(false)
  const [busy, setBusy] = useState(false)
  const trimmed = reason.trim()
  const error =
    action === 'unpass' && trimmed === ''
      ? t('projects.reason.required')
      : trimmed.length > projectLimits.reason
        ? t('projects.reason.tooLong', [projectLimits.reason])
        : null
  const submit = async () => {
    setTouched(true)
    if (error) return
    setBusy(true)
    try {
      await onConfirm(trimmed)
    } finally {
      setBusy(false)
    }
  }
  return (
    <Dialog isOpen onClose={onClose} title={t(action === 'unpass' ? 'projects.reason.unpassTitle' : 'projects.reason.closeTitle')}>
      <div data-testid="project-reason-dialog">
        <DialogBody>
          <p>{t(action === 'unpass' ? 'projects.reason.unpassHint' : 'projects.reason.closeHint')}</p>
          <FormGroup
            label={t('projects.reason.label')}
            labelFor="project-reason-input"
            labelInfo={action === 'unpass' ? '*' : undefined}
            intent={touched && error ? 'danger' : 'none'}
            helperText={touched && error ? error : undefined}
          >
            <TextArea
              id="project-reason-input"
              autoFocus
              fill
              rows={4}
              value={reason}
              intent={touched && error ? 'danger' : 'none'}
              data-testid="project-reason-input"
              onChange={(e) => setReason(e.currentTarget.value)}
              onKeyDown={(e) => {
                if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) void submit()
              }}
            />
          </FormGroup>
        </DialogBody>
        <DialogFooter
          actions={
            <>
              <Button text={t('common.cancel')} onClick={onClose} />
              <BusyButton
                intent={action === 'unpass' ? 'warning' : 'primary'}
                text={t('common.confirm')}
                loading={busy}
                data-testid="project-reason-confirm"
                onClick={() => void submit()}
              />
            </>
          }
        />
      </div>
    </Dialog>
  )
}
