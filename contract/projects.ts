import { z } from 'zod'
import { idParam, idValue, integerParam } from './ids.ts'

/**
 * Research projects (issue 9; SPEC §2 /project, §3 Project, Queue, Role, Center, the project info
 * draft): the fields with their listed options, the wizard, the edit tabs, the center directory,
 * project roles, members, applications to join and the audit flow. Paths are resource-style
 * under api/ (DESIGN §3); the SPEC names no calls for these screens.
 */

export const projectPaths = {
  projects: 'api/projects',
  /** Active projects the caller is not a member of, to apply to (multi-apply). */
  open: 'api/projects/open',
  project: (id: number) => `api/projects/${id}`,
  base: (id: number) => `api/projects/${id}/base`,
  queues: (id: number) => `api/projects/${id}/queues`,
  queue: (id: number, queueId: number) => `api/projects/${id}/queues/${queueId}`,
  centers: (id: number) => `api/projects/${id}/centers`,
  forms: (id: number) => `api/projects/${id}/forms`,
  formUpgrade: (id: number, templateId: number) => `api/projects/${id}/forms/${templateId}/upgrade`,
  history: (id: number) => `api/projects/${id}/history`,
  submit: (id: number) => `api/projects/${id}/submit`,
  pass: (id: number) => `api/projects/${id}/pass`,
  unpass: (id: number) => `api/projects/${id}/unpass`,
  close: (id: number) => `api/projects/${id}/close`,
  roles: (id: number) => `api/projects/${id}/roles`,
  role: (id: number, roleId: number) => `api/projects/${id}/roles/${roleId}`,
  members: (id: number) => `api/projects/${id}/members`,
  member: (id: number, memberId: number) => `api/projects/${id}/members/${memberId}`,
  /** Back-office users who are not members yet (the user picker), by name or username prefix. */
  candidates: (id: number) => `api/projects/${id}/candidates`,
  applications: (id: number) => `api/projects/${id}/applications`,
  approve: (id: number, applicationId: number) => `api/projects/${id}/applications/${applicationId}/approve`,
  refuse: (id: number, applicationId: number) => `api/projects/${id}/applications/${applicationId}/refuse`,
  /** The caller's own applications, newest first. */
  myApplications: 'api/projects/applications/mine',
  centerDirectory: 'api/centers',
  center: (id: number) => `api/centers/${id}`,
} as const

/** The edit tabs of /project/multi-edit, in SPEC order. */
export const projectEditTabs = ['base', 'queue', 'index', 'center', 'member', 'config'] as const
export type ProjectEditTab = (typeof projectEditTabs)[number]

/** Multi-center projects list on /project/multi-list, single-center ones on /project/list. */
export const projectScopes = ['multi', 'single'] as const
/** SPEC: prospective clinical research, retrospective clinical study, databases and others. */
export const projectTypes = ['prospective', 'retrospective', 'database'] as const
/** SPEC test by stages: phase I–IV clinical trial, bioequivalence test. */
export const testStages = ['I', 'II', 'III', 'IV', 'BE'] as const
/** SPEC group divisible design: one-armed test, group test. */
export const groupTypes = ['single', 'group'] as const
/** SPEC blinded set: open, double blind, single blind. */
export const blindedSets = ['open', 'double', 'single'] as const
/** SPEC random method: none, simple randomization, stratified random. */
export const randomMethods = ['none', 'simple', 'stratified'] as const
/**
 * draft → (submit) auditing → (pass) active, or (unpass, with a reason) draft; a project without
 * subjects can be deleted, one with subjects only closed.
 */
export const projectStatuses = ['draft', 'auditing', 'active', 'closed'] as const

export type ProjectScope = (typeof projectScopes)[number]
export type ProjectType = (typeof projectTypes)[number]
export type TestStage = (typeof testStages)[number]
export type GroupType = (typeof groupTypes)[number]
export type BlindedSet = (typeof blindedSets)[number]
export type RandomMethod = (typeof randomMethods)[number]
export type ProjectStatus = (typeof projectStatuses)[number]

/**
 * What a project role lets its members do inside the project (the member tab's functional
 * authority). The server checks them with the system permissions (contract/permissions.ts): both
 * are needed, so a project role never gives more than the person's system roles allow.
 */
export const projectAuthorities = [
  'configure',
  'manageMembers',
  'enrol',
  'enterData',
  'editData',
  'delete',
  'sign',
  'export',
  /** Download identifier fields (personal data); without it a download leaves them out. */
  'identifiers',
  'unblind',
] as const
export type ProjectAuthority = (typeof projectAuthorities)[number]

export const projectLimits = {
  name: 100,
  number: 50,
  groupNumber: 50,
  time: 50,
  plannedQuantity: 10_000_000,
  plannedGroups: 100,
  queues: 50,
  queueName: 50,
  queueKey: 30,
  condition: 2000,
  forms: 200,
  centers: 500,
  roleName: 50,
  remarks: 200,
  reason: 500,
  centerCode: 32,
  centerName: 100,
  centerNameEn: 200,
  region: 100,
} as const

/** A queue key: a letter, then letters, digits or underscores (it names the queue in files). */
export const queueKeyPattern = /^[A-Za-z][A-Za-z0-9_]*$/

const text = (max: number) => z.string().trim().max(max).default('')
const required = (max: number) => z.string().trim().min(1).max(max)

/** The basic-info step and the base tab. Cross-field rules: see `baseRules`. */
export const projectBaseInput = z.object({
  type: z.enum(projectTypes),
  name: required(projectLimits.name),
  number: required(projectLimits.number),
  testStage: z.enum(testStages).nullable().default(null),
  groupNumber: text(projectLimits.groupNumber),
  manageBiomaterial: z.boolean().default(false),
  groupType: z.enum(groupTypes),
  diseaseId: idValue.nullable().default(null),
  blinded: z.enum(blindedSets).default('open'),
  randomMethod: z.enum(randomMethods).default('none'),
  plannedQuantity: z.number().int().min(1).max(projectLimits.plannedQuantity),
  plannedGroups: z.number().int().min(1).max(projectLimits.plannedGroups),
  therapyTime: text(projectLimits.time),
  followUpTime: text(projectLimits.time),
})
export type ProjectBaseInput = z.infer<typeof projectBaseInput>

/**
 * The rules between base fields, as message keys of the client and the server alike: a one-armed
 * test has one group and nothing to randomize; a group test has at least two groups.
 */
export function baseRules(base: Pick<ProjectBaseInput, 'groupType' | 'plannedGroups' | 'randomMethod'>) {
  const broken: {
    field: 'plannedGroups' | 'randomMethod'
    key: 'project.rule.oneArmGroups' | 'project.rule.groupTestGroups' | 'project.rule.oneArmRandom'
  }[] = []
  if (base.groupType === 'single' && base.plannedGroups !== 1) broken.push({ field: 'plannedGroups', key: 'project.rule.oneArmGroups' })
  if (base.groupType === 'group' && base.plannedGroups < 2) broken.push({ field: 'plannedGroups', key: 'project.rule.groupTestGroups' })
  if (base.groupType === 'single' && base.randomMethod !== 'none') broken.push({ field: 'randomMethod', key: 'project.rule.oneArmRandom' })
  return broken
}

export const queueInput = z.object({
  name: required(projectLimits.queueName),
  key: z.string().trim().min(1).max(projectLimits.queueKey).regex(queueKeyPattern),
  entryCondition: text(projectLimits.condition),
  excludeCondition: text(projectLimits.condition),
})
export type QueueInput = z.infer<typeof queueInput>

export const queue = queueInput.extend({
  id: z.number().int(),
  sort: z.number().int(),
  /** Research objects in the queue; a queue with any cannot be deleted (SPEC §8). */
  subjectCount: z.number().int(),
})
export type Queue = z.infer<typeof queue>

/** A CRF or question group to collect, pinned to one of its published versions. */
export const formPin = z.object({ templateId: idValue, versionId: idValue })
export type FormPin = z.infer<typeof formPin>

export const projectForm = z.object({
  templateId: z.number().int(),
  /** 'crf' or 'subject' (question group), as templates are. */
  kind: z.string(),
  name: z.string(),
  collectType: z.string(),
  versionId: z.number().int(),
  version: z.number().int(),
  /** The newest published version, when newer than the pinned one: an upgrade is offered. */
  latestVersionId: z.number().int().nullable(),
  latestVersion: z.number().int().nullable(),
  sort: z.number().int(),
})
export type ProjectForm = z.infer<typeof projectForm>

/** A center of the directory. */
export const centerInput = z.object({
  code: required(projectLimits.centerCode),
  nameZh: required(projectLimits.centerName),
  nameEn: text(projectLimits.centerNameEn),
  region: text(projectLimits.region),
})
export type CenterInput = z.infer<typeof centerInput>

export const center = centerInput.extend({
  id: z.number().int(),
  /** Projects using the center; one in use cannot be deleted. */
  projectCount: z.number().int(),
  createdAt: z.string(),
  updatedAt: z.string(),
})
export type Center = z.infer<typeof center>

export const centerListQuery = z.object({
  /** Prefix of the code or either name. */
  q: z.string().trim().max(100).optional(),
  after: z.string().max(500).optional(),
  limit: integerParam(z.number().int().min(1).max(1000)).default(100),
})
export const centerPage = z.object({ rows: z.array(center), next: z.string().nullable(), total: z.number().int() })
export type CenterPage = z.infer<typeof centerPage>

/** Saving the wizard: one transaction, all or nothing. */
export const projectCreateInput = z.object({
  scope: z.enum(projectScopes),
  base: projectBaseInput,
  queues: z.array(queueInput).min(1).max(projectLimits.queues),
  forms: z.array(formPin).max(projectLimits.forms).default([]),
  centerIds: z.array(idValue).max(projectLimits.centers).default([]),
})
export type ProjectCreateInput = z.infer<typeof projectCreateInput>

export const projectSortKeys = ['name', 'number', 'created', 'updated', 'subjects'] as const
export type ProjectSortKey = (typeof projectSortKeys)[number]

export const projectListQuery = z.object({
  scope: z.enum(projectScopes),
  /** Prefix of the name or the number (any case). */
  q: z.string().trim().max(100).optional(),
  type: z.enum(projectTypes).optional(),
  testStage: z.enum(testStages).optional(),
  diseaseId: idParam.optional(),
  status: z.enum(projectStatuses).optional(),
  randomMethod: z.enum(randomMethods).optional(),
  sort: z.enum(projectSortKeys).default('updated'),
  order: z.enum(['asc', 'desc']).default('desc'),
  after: z.string().max(500).optional(),
  limit: integerParam(z.number().int().min(1).max(1000)).default(50),
})
export type ProjectListQuery = z.infer<typeof projectListQuery>

/** The caller's place in a project: their project role, or null for a system administrator or auditor who is not a member. */
export const membershipView = z.object({
  roleId: z.number().int(),
  roleName: z.string(),
  authorities: z.array(z.enum(projectAuthorities)),
  blinded: z.boolean(),
  /** null: every queue / center of the project. */
  queueIds: z.array(z.number().int()).nullable(),
  centerIds: z.array(z.number().int()).nullable(),
})
export type MembershipView = z.infer<typeof membershipView>

export const projectRow = z.object({
  id: z.number().int(),
  scope: z.enum(projectScopes),
  type: z.enum(projectTypes),
  name: z.string(),
  number: z.string(),
  testStage: z.enum(testStages).nullable(),
  diseaseId: z.number().int().nullable(),
  diseaseName: z.string().nullable(),
  diseaseNameEn: z.string().nullable(),
  status: z.enum(projectStatuses),
  randomMethod: z.enum(randomMethods),
  blinded: z.enum(blindedSets),
  plannedQuantity: z.number().int(),
  subjectCount: z.number().int(),
  creatorName: z.string().nullable(),
  /** The caller's project role name, null when not a member. */
  myRole: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
})
export type ProjectRow = z.infer<typeof projectRow>

export const projectPage = z.object({ rows: z.array(projectRow), next: z.string().nullable(), total: z.number().int() })
export type ProjectPage = z.infer<typeof projectPage>

export const projectCenter = z.object({
  id: z.number().int(),
  code: z.string(),
  nameZh: z.string(),
  nameEn: z.string(),
  region: z.string(),
  sort: z.number().int(),
  subjectCount: z.number().int(),
})
export type ProjectCenter = z.infer<typeof projectCenter>

export const projectDetail = projectRow.extend({
  groupNumber: z.string(),
  manageBiomaterial: z.boolean(),
  groupType: z.enum(groupTypes),
  plannedGroups: z.number().int(),
  therapyTime: z.string(),
  followUpTime: z.string(),
  /** The reason of the last unpass or close. */
  statusReason: z.string(),
  /** Queues and centers the caller may see (all of them for managers). */
  queues: z.array(queue),
  centers: z.array(projectCenter),
  forms: z.array(projectForm),
  me: membershipView.nullable(),
})
export type ProjectDetail = z.infer<typeof projectDetail>

/** The base tab: every base field; the scope (multi / single center) is fixed at creation. */
export const projectBaseUpdate = projectBaseInput
export const centersUpdate = z.object({ centerIds: z.array(idValue).max(projectLimits.centers) })
/** Adds and removes pins and reorders them; an existing pin changes version only by an upgrade. */
export const formsUpdate = z.object({ forms: z.array(formPin).max(projectLimits.forms) })
export const formUpgradeInput = z.object({ versionId: idValue })

/** Unpass needs a reason; closing takes one. */
export const reasonInput = z.object({ reason: z.string().trim().min(1).max(projectLimits.reason) })
export const optionalReasonInput = z.object({ reason: text(projectLimits.reason) })

/**
 * What a project's own history lists: changes to the project, its setup, members and plans.
 * Enrolments and samples are written against the project too, but they are the subjects' own
 * (their trails, the audit log): listed here they would name subjects of centers the reader may
 * not see, and grow with the study.
 */
export const projectHistoryActions = [
  'project.create',
  'project.update',
  'project.submit',
  'project.pass',
  'project.unpass',
  'project.close',
  'project.delete',
  'project.queue.create',
  'project.queue.update',
  'project.queue.delete',
  'project.centers',
  'project.forms',
  'project.form.upgrade',
  'project.role.create',
  'project.role.update',
  'project.role.delete',
  'project.member.add',
  'project.member.role',
  'project.member.remove',
  'project.apply',
  'project.application.approve',
  'project.application.refuse',
  'project.randomizationPlan',
  'project.randomizationGenerate',
  'project.visit.create',
  'project.visit.update',
  'project.visit.delete',
] as const

export const historyEntry = z.object({
  id: z.number().int(),
  at: z.string(),
  username: z.string().nullable(),
  action: z.string(),
  outcome: z.string(),
  detail: z.string().nullable(),
})
export const projectHistory = z.array(historyEntry)
export type HistoryEntry = z.infer<typeof historyEntry>

export const projectRoleInput = z.object({
  name: required(projectLimits.roleName),
  remarks: text(projectLimits.remarks),
  authorities: z.array(z.enum(projectAuthorities)).max(projectAuthorities.length).default([]),
  blinded: z.boolean().default(false),
  /** true: every queue, present and future; else exactly `queueIds`. */
  allQueues: z.boolean().default(false),
  queueIds: z.array(idValue).max(projectLimits.queues).default([]),
  allCenters: z.boolean().default(false),
  centerIds: z.array(idValue).max(projectLimits.centers).default([]),
})
export type ProjectRoleInput = z.infer<typeof projectRoleInput>

export const projectRole = projectRoleInput.extend({
  id: z.number().int(),
  /** 'manager' for the creator's role: it keeps every authority, queue and center. */
  builtin: z.string().nullable(),
  memberCount: z.number().int(),
})
export type ProjectRole = z.infer<typeof projectRole>
export const projectRoleList = z.array(projectRole)

export const memberInput = z.object({ userId: idValue, roleId: idValue })
export const memberRoleInput = z.object({ roleId: idValue })
export const member = z.object({
  id: z.number().int(),
  userId: z.number().int(),
  name: z.string(),
  username: z.string().nullable(),
  image: z.string(),
  roleId: z.number().int(),
  roleName: z.string(),
  createdAt: z.string(),
})
export type Member = z.infer<typeof member>
export const memberList = z.array(member)

export const candidateQuery = z.object({
  q: z.string().trim().max(64).optional(),
  limit: integerParam(z.number().int().min(1).max(100)).default(20),
})
export const candidate = z.object({
  id: z.number().int(),
  name: z.string(),
  username: z.string().nullable(),
  department: z.string().nullable(),
})
export const candidateList = z.array(candidate)
export type Candidate = z.infer<typeof candidate>

export const applicationStatuses = ['pending', 'approved', 'refused'] as const
export const applicationInput = z.object({
  roleId: idValue.nullable().default(null),
  reason: required(projectLimits.reason),
})
export type ApplicationInput = z.infer<typeof applicationInput>
/** Approving names the role the applicant receives (by default the one they wished). */
export const approveInput = z.object({ roleId: idValue })
export const refuseInput = reasonInput

export const application = z.object({
  id: z.number().int(),
  projectId: z.number().int(),
  projectName: z.string(),
  userId: z.number().int(),
  name: z.string(),
  roleId: z.number().int().nullable(),
  roleName: z.string().nullable(),
  reason: z.string(),
  status: z.enum(applicationStatuses),
  decidedBy: z.string().nullable(),
  decisionReason: z.string(),
  createdAt: z.string(),
  decidedAt: z.string().nullable(),
})
export type Application = z.infer<typeof application>
export const applicationList = z.array(application)

/** A project one may apply to join, with the roles one may wish for. */
export const openProject = z.object({
  id: z.number().int(),
  scope: z.enum(projectScopes),
  name: z.string(),
  number: z.string(),
  diseaseName: z.string().nullable(),
  diseaseNameEn: z.string().nullable(),
  roles: z.array(z.object({ id: z.number().int(), name: z.string() })),
  /** The caller's pending application, if any. */
  pendingApplicationId: z.number().int().nullable(),
})
export const openProjectQuery = z.object({ q: z.string().trim().max(100).optional() })
export const openProjectList = z.array(openProject)
export type OpenProject = z.infer<typeof openProject>
