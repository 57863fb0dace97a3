import { useCallback } from 'react'
import { H5, HTMLTable, NonIdealState, Tag } from '@blueprintjs/core'
import { HTMLSelect } from '../../ui/HTMLSelect.tsx'
import type { Member, ProjectDetail, ProjectRole } from '../../../contract/projects.ts'
import { addMemberDialog, approveDialog, refuseDialog, roleDialog } from '../../../commands/projectMembers.ts'
import { useApi } from '../../api/query.ts'
import { joinList } from '../../i18n/index.ts'
import { useLang, useT } from '../../i18n/useT.ts'
import { bilingual } from '../../../contract/bilingual.ts'
import { formatTime } from '../../lib/time.ts'
import { closeDialog, useDialog } from '../../state/dialogs.ts'
import { CommandButton } from '../../ui/CommandButton.tsx'
import { useCommandHost } from '../../ui/commandHost.tsx'
import { AddMemberDialog } from './AddMemberDialog.tsx'
import { roleBoundsOf } from './roleBounds.ts'
import { roleLabel } from './labels.ts'
import { ApproveDialog, RefuseDialog } from './ApplicationDialogs.tsx'
import { listApplications } from './api/listApplications.ts'
import { listMembers } from './api/listMembers.ts'
import { listProjectRoles } from './api/listProjectRoles.ts'
import { ProjectRoleDialog } from './ProjectRoleDialog.tsx'

/**
 * The member tab of /project/multi-edit (issue 9 item 4): the project roles (functional
 * authorities, blinded, queue and center permissions), the members with their roles, and the
 * pending applications to join. Everything it changes goes through the projectMembers commands;
 * a manager without the member grant sees the lists without their actions.
 */
export default function MemberTab({ project }: { project: ProjectDetail }) {
  const t = useT()
  const lang = useLang()
  const host = useCommandHost()
  const id = project.id
  const manages = host.context().can('project.manageMembers') && (project.me === null || project.me.authorities.includes('manageMembers'))
  const roles = useApi(['projects', 'roles', id], (signal) => listProjectRoles(id, { signal }))
  const members = useApi(['projects', 'members', id], (signal) => listMembers(id, { signal }))
  const applications = useApi(['projects', 'applications', id], (signal) => listApplications(id, { signal }), { enabled: manages })
  const pending = (applications.data ?? []).filter((a) => a.status === 'pending')
  const roleList = roles.data ?? []
  // A member grants no more than their own role holds (the server refuses the rest).
  const bounds = roleBoundsOf(project.me)
  const grantable = roleList.filter((r) => bounds.covers(r))

  const addRequest = useDialog(addMemberDialog)
  const roleRequest = useDialog(roleDialog)
  const approveRequest = useDialog(approveDialog)
  const refuseRequest = useDialog(refuseDialog)
  const closeAdd = useCallback(() => closeDialog(addMemberDialog), [])
  const closeRole = useCallback(() => closeDialog(roleDialog), [])
  const closeApprove = useCallback(() => closeDialog(approveDialog), [])
  const closeRefuse = useCallback(() => closeDialog(refuseDialog), [])

  const list = (names: string[]) => joinList(names, lang)
  const queueNames = (r: ProjectRole) =>
    r.allQueues ? t('projectMembers.role.all') : list(project.queues.filter((q) => r.queueIds.includes(q.id)).map((q) => q.name)) || '—'
  const centerNames = (r: ProjectRole) =>
    r.allCenters
      ? t('projectMembers.role.all')
      : list(project.centers.filter((c) => r.centerIds.includes(c.id)).map((c) => bilingual(c.nameZh, c.nameEn, lang))) || '—'
  const time = (at: string) => formatTime(at, '{y}-{m}-{d} {h}:{i}', lang) ?? at

  const changeRole = (m: Member, roleId: number) =>
    void host.run('projectMembers.changeMemberRole', 'button', { id, memberId: m.id, roleId })

  const editing = roleRequest?.args.projectId === id ? roleRequest : null
  const editingRole = editing && editing.args.roleId !== null ? (roleList.find((r) => r.id === editing.args.roleId) ?? null) : null
  const approving = approveRequest?.args.projectId === id ? pending.find((a) => a.id === approveRequest.args.applicationId) : undefined
  const refusing = refuseRequest?.args.projectId === id ? pending.find((a) => a.id === refuseRequest.args.applicationId) : undefined

  return (
    <div className="project-member-tab" data-testid="member-tab" data-project={id}>
      <section aria-labelledby="project-roles-title">
        <div className="member-tab-head">
          <H5 id="project-roles-title">{t('projectMembers.roles')}</H5>
          {manages && <CommandButton id="projectMembers.editRole" args={{ id }} label={t('projectMembers.newRole')} icon="add" />}
        </div>
        <HTMLTable compact striped className="project-roles" data-testid="project-roles">
          <thead>
            <tr>
              <th scope="col">{t('projectMembers.role.name')}</th>
              <th scope="col">{t('projectMembers.role.remarks')}</th>
              <th scope="col">{t('projectMembers.role.authorities')}</th>
              <th scope="col">{t('projectMembers.role.queues')}</th>
              <th scope="col">{t('projectMembers.role.centers')}</th>
              <th scope="col">{t('projectMembers.role.memberCount')}</th>
              {manages && <th scope="col">{t('projectMembers.actions')}</th>}
            </tr>
          </thead>
          <tbody>
            {roleList.map((r) => (
              <tr key={r.id} data-testid="project-role-row" data-id={r.id}>
                <td>
                  {roleLabel(r, t)}{' '}
                  {r.blinded && (
                    <Tag minimal intent="warning">
                      {t('projectMembers.role.blindedShort')}
                    </Tag>
                  )}
                </td>
                <td>{r.remarks}</td>
                <td>{list(r.authorities.map((a) => t(`projectMembers.authority.${a}`)))}</td>
                <td>{queueNames(r)}</td>
                <td>{centerNames(r)}</td>
                <td>{r.memberCount}</td>
                {manages && (
                  <td>
                    <span className="row-actions">
                      <CommandButton
                        id="projectMembers.editRole"
                        args={{ id, roleId: r.id }}
                        icon="edit"
                        variant="minimal"
                        size="small"
                        iconOnly
                      />
                      {r.builtin === null && (
                        <CommandButton
                          id="projectMembers.deleteRole"
                          args={{ id, roleId: r.id }}
                          icon="trash"
                          intent="danger"
                          variant="minimal"
                          size="small"
                          iconOnly
                        />
                      )}
                    </span>
                  </td>
                )}
              </tr>
            ))}
          </tbody>
        </HTMLTable>
      </section>

      <section aria-labelledby="project-members-title">
        <div className="member-tab-head">
          <H5 id="project-members-title">{t('projectMembers.members')}</H5>
          {manages && <CommandButton id="projectMembers.addMember" args={{ id }} icon="new-person" intent="primary" />}
        </div>
        {members.data && members.data.length === 0 ? (
          <NonIdealState icon="people" description={t('projectMembers.member.empty')} />
        ) : (
          <HTMLTable compact striped className="project-members" data-testid="project-members">
            <thead>
              <tr>
                <th scope="col">{t('projectMembers.member.name')}</th>
                <th scope="col">{t('projectMembers.member.username')}</th>
                <th scope="col">{t('projectMembers.member.role')}</th>
                <th scope="col">{t('projectMembers.member.joined')}</th>
                {manages && <th scope="col">{t('projectMembers.actions')}</th>}
              </tr>
            </thead>
            <tbody>
              {(members.data ?? []).map((m) => (
                <tr key={m.id} data-testid="project-member-row" data-id={m.id}>
                  <td>{m.name}</td>
                  <td>{m.username ?? ''}</td>
                  <td>
                    {manages ? (
                      <HTMLSelect
                        minimal
                        aria-label={t('projectMembers.member.changeRoleOf', [m.name])}
                        value={m.roleId}
                        disabled={!grantable.some((r) => r.id === m.roleId)}
                        onChange={(e) => changeRole(m, Number(e.currentTarget.value))}
                        data-testid="member-role-select"
                      >
                        {roleList.map((r) => (
                          <option key={r.id} value={r.id} disabled={!bounds.covers(r)}>
                            {roleLabel(r, t)}
                          </option>
                        ))}
                      </HTMLSelect>
                    ) : (
                      roleLabel({ name: m.roleName, builtin: roleList.find((r) => r.id === m.roleId)?.builtin ?? null }, t)
                    )}
                  </td>
                  <td>{time(m.createdAt)}</td>
                  {manages && (
                    <td>
                      <span className="row-actions">
                        <CommandButton
                          id="projectMembers.removeMember"
                          args={{ id, memberId: m.id }}
                          icon="remove"
                          intent="danger"
                          variant="minimal"
                          size="small"
                          iconOnly
                        />
                      </span>
                    </td>
                  )}
                </tr>
              ))}
            </tbody>
          </HTMLTable>
        )}
      </section>

      {manages && (
        <section aria-labelledby="project-applications-title">
          <H5 id="project-applications-title">{t('projectMembers.applications')}</H5>
          {pending.length === 0 ? (
            <NonIdealState icon="inbox" description={t('projectMembers.application.empty')} />
          ) : (
            <HTMLTable compact striped className="project-applications" data-testid="project-applications">
              <thead>
                <tr>
                  <th scope="col">{t('projectMembers.application.name')}</th>
                  <th scope="col">{t('projectMembers.application.wished')}</th>
                  <th scope="col">{t('projectMembers.application.reason')}</th>
                  <th scope="col">{t('projectMembers.application.at')}</th>
                  <th scope="col">{t('projectMembers.actions')}</th>
                </tr>
              </thead>
              <tbody>
                {pending.map((a) => (
                  <tr key={a.id} data-testid="project-application-row" data-id={a.id}>
                    <td>{a.name}</td>
                    <td>{a.roleName ?? '—'}</td>
                    <td>{a.reason}</td>
                    <td>{time(a.createdAt)}</td>
                    <td>
                      <span className="row-actions">
                        <CommandButton
                          id="projectMembers.approve"
                          label={t('projectMembers.application.approve')}
                          args={{ id, applicationId: a.id }}
                          icon="tick"
                          intent="success"
                          size="small"
                        />
                        <CommandButton
                          id="projectMembers.refuse"
                          label={t('projectMembers.application.refuse')}
                          args={{ id, applicationId: a.id }}
                          icon="cross"
                          intent="danger"
                          size="small"
                        />
                      </span>
                    </td>
                  </tr>
                ))}
              </tbody>
            </HTMLTable>
          )}
        </section>
      )}

      {addRequest?.args.projectId === id && roles.data && (
        <AddMemberDialog key={addRequest.seq} projectId={id} roles={grantable} onClose={closeAdd} />
      )}
      {editing && (editing.args.roleId === null || editingRole) && (
        <ProjectRoleDialog key={editing.seq} project={project} role={editingRole} onClose={closeRole} />
      )}
      {approving && (
        <ApproveDialog key={approveRequest?.seq} projectId={id} application={approving} roles={grantable} onClose={closeApprove} />
      )}
      {refusing && <RefuseDialog key={refuseRequest?.seq} projectId={id} application={refusing} onClose={closeRefuse} />}
    </div>
  )
}
