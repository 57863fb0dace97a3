import { sql } from 'kysely'
import type { Q } from '../query.ts'
import type { Career, Department } from '../tables/organization.ts'

// --- Departments ---------------------------------------------------------------------------

export interface DepartmentWithCount extends Department {
  user_count: number
}

/** Every department with the people filed under it (app_user_department_idx serves each count). */
export async function listDepartmentRows(db: Q): Promise<DepartmentWithCount[]> {
  const rows = await db
    .selectFrom('department')
    .selectAll('department')
    .select((eb) =>
      eb
        .selectFrom('app_user')
        .whereRef('app_user.department_id', '=', 'department.id')
        .select((e) => e.fn.countAll<number | string>().as('n'))
        .as('user_count'),
    )
    .orderBy('department.sort')
    .orderBy('department.id')
    .execute()
  return rows.map((r) => ({ ...r, user_count: Number(r.user_count ?? 0) }))
}

export function findDepartment(db: Q, id: number): Promise<Department | undefined> {
  return db.selectFrom('department').selectAll().where('id', '=', id).executeTakeFirst()
}

/** The children of a parent (null: the top level), in order. */
export function childDepartments(db: Q, parentId: number | null): Promise<Department[]> {
  return db
    .selectFrom('department')
    .selectAll()
    .where('parent_id', parentId === null ? 'is' : '=', parentId)
    .orderBy('sort')
    .orderBy('id')
    .execute()
}

export async function insertDepartment(db: Q, d: { name: string; parentId: number | null; sort: number; now: string }): Promise<number> {
  const row = await db
    .insertInto('department')
    .values({ name: d.name, parent_id: d.parentId, sort: d.sort, created_at: d.now, updated_at: d.now })
    .returning('id')
    .executeTakeFirstOrThrow()
  return row.id
}

export async function updateDepartmentRow(
  db: Q,
  id: number,
  patch: { name?: string; parent_id?: number | null; sort?: number },
  now: string,
): Promise<void> {
  await db
    .updateTable('department')
    .set({ ...patch, updated_at: now })
    .where('id', '=', id)
    .execute()
}

export async function deleteDepartmentRow(db: Q, id: number): Promise<void> {
  await db.deleteFrom('department').where('id', '=', id).execute()
}

export async function countUsersInDepartment(db: Q, id: number): Promise<number> {
  const row = await db
    .selectFrom('app_user')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('department_id', '=', id)
    .executeTakeFirstOrThrow()
  return Number(row.n)
}

export async function countChildDepartments(db: Q, id: number): Promise<number> {
  const row = await db
    .selectFrom('department')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('parent_id', '=', id)
    .executeTakeFirstOrThrow()
  return Number(row.n)
}

// --- Careers -------------------------------------------------------------------------------

export interface CareerWithCount extends Career {
  user_count: number
}

export interface CareerPageQuery {
  /** Lower-cased name prefix. */
  q?: string
  sort: 'name' | 'id'
  order: 'asc' | 'desc'
  after: readonly [string, number] | null
  limit: number
}

/** Careers with the people who hold each (app_user_career_idx serves each count). */
function careersWithCounts(db: Q) {
  return db
    .selectFrom('career')
    .selectAll('career')
    .select((eb) =>
      eb
        .selectFrom('app_user')
        .whereRef('app_user.career_id', '=', 'career.id')
        .select((e) => e.fn.countAll<number | string>().as('n'))
        .as('user_count'),
    )
}

/**
 * One page in (name, id) or id order: keyset paging on career_name_idx or the primary key, so
 * the deepest page costs what the first does. The name filter compares a prefix of lower(name)
 * (careers number in the hundreds; never LIKE '%x%').
 */
export function careerPageQuery(db: Q, p: CareerPageQuery) {
  const op = p.order === 'asc' ? '>' : '<'
  return careersWithCounts(db)
    .where((eb) => {
      const conds = []
      if (p.q) conds.push(eb(sql<string>`substr(lower(career.name), 1, ${sql.lit(Array.from(p.q).length)})`, '=', p.q))
      if (p.after) {
        conds.push(
          p.sort === 'name'
            ? eb(eb.refTuple('career.name', 'career.id'), op, eb.tuple(p.after[0], p.after[1]))
            : eb('career.id', op, p.after[1]),
        )
      }
      return eb.and(conds)
    })
    .$call((qb) =>
      p.sort === 'name' ? qb.orderBy('career.name', p.order).orderBy('career.id', p.order) : qb.orderBy('career.id', p.order),
    )
    .limit(p.limit)
}

export async function listCareerRows(db: Q, p: CareerPageQuery): Promise<CareerWithCount[]> {
  const rows = await careerPageQuery(db, p).execute()
  return rows.map((r) => ({ ...r, user_count: Number(r.user_count ?? 0) }))
}

export async function countCareerRows(db: Q, q: string | undefined): Promise<number> {
  const row = await db
    .selectFrom('career')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .$if(!!q, (qb) => qb.where(sql<string>`substr(lower(name), 1, ${sql.lit(Array.from(q ?? '').length)})`, '=', q ?? ''))
    .executeTakeFirstOrThrow()
  return Number(row.n)
}

export async function findCareerWithCount(db: Q, id: number): Promise<CareerWithCount | undefined> {
  const rows = await careersWithCounts(db).where('career.id', '=', id).execute()
  return rows.map((r) => ({ ...r, user_count: Number(r.user_count ?? 0) }))[0]
}

/** The career of that name whatever its case (what career_name_lower_idx keeps unique). */
export function findCareerByName(db: Q, name: string): Promise<Career | undefined> {
  return db
    .selectFrom('career')
    .selectAll()
    .where(sql<string>`lower(name)`, '=', sql<string>`lower(${name})`)
    .executeTakeFirst()
}

export async function insertCareer(db: Q, c: { name: string; remarks: string; now: string }): Promise<number> {
  const row = await db
    .insertInto('career')
    .values({ name: c.name, remarks: c.remarks, created_at: c.now, updated_at: c.now })
    .returning('id')
    .executeTakeFirstOrThrow()
  return row.id
}

export async function updateCareerRow(db: Q, id: number, c: { name: string; remarks: string }, now: string): Promise<void> {
  await db.updateTable('career').set({ name: c.name, remarks: c.remarks, updated_at: now }).where('id', '=', id).execute()
}

export async function deleteCareerRow(db: Q, id: number): Promise<void> {
  await db.deleteFrom('career').where('id', '=', id).execute()
}
