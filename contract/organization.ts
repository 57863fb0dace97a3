import { z } from 'zod'
import { envelope } from './envelope.ts'
import { idValue, integerParam } from './ids.ts'

/**
 * Departments (a tree) and careers (job titles) of the back office (issue 8 item 1). Both are
 * referred to by people (app_user.department_id / career_id), so neither is deleted while
 * someone is filed under it.
 */

export const organizationPaths = {
  departments: 'api/admin/departments',
  department: (id: number) => `api/admin/departments/${id}`,
  moveDepartment: (id: number) => `api/admin/departments/${id}/move`,
  careers: 'api/admin/careers',
  career: (id: number) => `api/admin/careers/${id}`,
} as const

export const departmentNameMax = 64
export const careerNameMax = 64
export const careerRemarksMax = 500

export const department = z.object({
  id: z.number().int(),
  name: z.string(),
  parentId: z.number().int().nullable(),
  /** Position among its siblings. */
  sort: z.number().int(),
  /** People filed directly under it. */
  userCount: z.number().int(),
})
export type Department = z.infer<typeof department>

/** The whole tree as a flat list, siblings in order; the client nests it by parentId. */
export const departmentList = z.object({ items: z.array(department) })
export type DepartmentList = z.infer<typeof departmentList>

export const departmentName = z.string().trim().min(1).max(departmentNameMax)

export const departmentCreate = z.object({
  name: departmentName,
  parentId: idValue.nullable().default(null),
})
export type DepartmentCreate = z.infer<typeof departmentCreate>

export const departmentRename = z.object({ name: departmentName })
export type DepartmentRename = z.infer<typeof departmentRename>

/** A move: the new parent (null = top level) and the position among its children (past the end = last). */
export const departmentMove = z.object({
  parentId: idValue.nullable(),
  index: z.number().int().min(0).max(100_000).default(100_000),
})
export type DepartmentMove = z.infer<typeof departmentMove>

export const career = z.object({
  id: z.number().int(),
  name: z.string(),
  remarks: z.string(),
  userCount: z.number().int(),
  createdAt: z.string(),
})
export type Career = z.infer<typeof career>

export const careerInput = z.object({
  name: z.string().trim().min(1).max(careerNameMax),
  remarks: z.string().trim().max(careerRemarksMax).default(''),
})
export type CareerInput = z.infer<typeof careerInput>

/** `created` orders by creation (the id), `name` by name then id: both served by an index. */
export const careerSortKeys = ['name', 'created'] as const
export type CareerSortKey = (typeof careerSortKeys)[number]

export const careerListQuery = z.object({
  /** Prefix of the name, whatever its case. */
  q: z.string().trim().max(careerNameMax).optional(),
  sort: z.enum(careerSortKeys).default('name'),
  order: z.enum(['asc', 'desc']).default('asc'),
  /** The `next` of the previous page. */
  after: z.string().max(500).optional(),
  limit: integerParam(z.number().int().min(1).max(1000)).default(50),
})
export type CareerListQuery = z.infer<typeof careerListQuery>

export const careerPage = z.object({
  items: z.array(career),
  /** Cursor of the next page; null on the last one. */
  next: z.string().nullable(),
  total: z.number().int(),
})
export type CareerPage = z.infer<typeof careerPage>

export const departmentListResponse = envelope(departmentList)
export const departmentResponse = envelope(department)
export const careerPageResponse = envelope(careerPage)
export const careerResponse = envelope(career)
