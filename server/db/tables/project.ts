import type { Generated, Selectable } from 'kysely'

/** A research project (SPEC §3 Project); enum columns hold the contract's values (contract/projects.ts). */
export interface ProjectTable {
  id: Generated<number>
  scope: string
  type: string
  name: string
  number: string
  test_stage: string | null
  group_number: Generated<string>
  manage_biomaterial: Generated<number>
  group_type: string
  disease_id: number | null
  blinded: string
  random_method: string
  planned_quantity: number
  planned_groups: number
  therapy_time: Generated<string>
  follow_up_time: Generated<string>
  status: string
  status_reason: Generated<string>
  subject_count: Generated<number>
  creator_id: number | null
  created_at: string
  updated_at: string
}

/** An entry of the center directory; projects pick their centers from it. */
export interface CenterTable {
  id: Generated<number>
  code: string
  name_zh: string
  name_en: Generated<string>
  region: Generated<string>
  created_at: string
  updated_at: string
}

/** A queue (cohort) of a project, with its inclusion and exclusion conditions. */
export interface ProjectQueueTable {
  id: Generated<number>
  project_id: number
  name: string
  key: string
  entry_condition: Generated<string>
  exclude_condition: Generated<string>
  sort: Generated<number>
}

export interface ProjectCenterTable {
  project_id: number
  center_id: number
  sort: Generated<number>
}

/** A CRF or question group the project collects, pinned to one published version. */
export interface ProjectFormTable {
  project_id: number
  template_id: number
  version_id: number
  sort: Generated<number>
}

export interface ProjectRoleTable {
  id: Generated<number>
  project_id: number
  name: string
  remarks: Generated<string>
  /** JSON array of ProjectAuthority. */
  authorities: Generated<string>
  all_queues: Generated<number>
  all_centers: Generated<number>
  blinded: Generated<number>
  builtin: string | null
  created_at: string
  updated_at: string
}

export interface ProjectRoleQueueTable {
  role_id: number
  queue_id: number
}

export interface ProjectRoleCenterTable {
  role_id: number
  center_id: number
}

export interface ProjectMemberTable {
  id: Generated<number>
  project_id: number
  user_id: number
  role_id: number
  created_at: string
}

export interface ProjectApplicationTable {
  id: Generated<number>
  project_id: number
  user_id: number
  role_id: number | null
  reason: Generated<string>
  status: string
  decided_by: number | null
  decision_reason: Generated<string>
  created_at: string
  decided_at: string | null
}

export interface RandomizationPlanTable {
  project_id: number
  method: string
  seed: string
  block_sizes: Generated<string>
  strata_by_center: Generated<number>
  factors: Generated<string>
  list_size: Generated<number>
  generated_at: string | null
  updated_at: string
}

export interface ProjectGroupTable {
  id: Generated<number>
  project_id: number
  code: string
  name: string
  ratio: number
  sort: Generated<number>
}

export interface AllocationTable {
  id: Generated<number>
  project_id: number
  stratum: string
  seq: number
  block: number
  block_size: number
  group_id: number
  subject_id: number | null
  allocated_at: string | null
}

/** A research object (SPEC studyObject); the subjects issue adds its values and the rest. */
export interface SubjectTable {
  id: Generated<number>
  project_id: number
  queue_id: number
  center_id: number
  subject_no: string
  created_by: number | null
  created_at: string
  updated_at: string
  /** 'enrolled' (issue 10). */
  status: Generated<string>
  enrolled_by: number | null
  enrolled_at: string | null
  /** The queue checklist's answers, JSON {inclusion: boolean[], exclusion: boolean[]}. */
  checklist: Generated<string>
  /** The randomized group; null without randomization. */
  group_id: number | null
  /** The latest plain values of its non-visit forms, keyed `f<indicatorId>` (JSON; read with fromJson). */
  summary: Generated<unknown>
}

/** The last generated subject number per project and center. */
export interface SubjectSequenceTable {
  project_id: number
  center_id: number
  last: number
}

export type Project = Selectable<ProjectTable>
export type Center = Selectable<CenterTable>
export type ProjectQueue = Selectable<ProjectQueueTable>
export type ProjectRole = Selectable<ProjectRoleTable>
export type ProjectMember = Selectable<ProjectMemberTable>
export type ProjectApplication = Selectable<ProjectApplicationTable>
export type RandomizationPlan = Selectable<RandomizationPlanTable>
export type ProjectGroup = Selectable<ProjectGroupTable>
export type Allocation = Selectable<AllocationTable>
export type Subject = Selectable<SubjectTable>
