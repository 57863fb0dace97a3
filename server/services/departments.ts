import type { Department, DepartmentCreate, DepartmentList, DepartmentMove } from '../../contract/organization.ts'
import type { Q } from '../db/query.ts'
import {
  childDepartments,
  countChildDepartments,
  countUsersInDepartment,
  deleteDepartmentRow,
  findDepartment,
  insertDepartment,
  listDepartmentRows,
  updateDepartmentRow,
  type DepartmentWithCount,
} from '../db/repositories/organization.ts'
import { audit, type Actor } from './audit.ts'
import type { ServiceContext } from './context.ts'
import { ServiceError } from './errors.ts'

/** Departments as a tree (issue 8 item 1): names unique among siblings, no cycles, no deleting what is in use. */

const toDepartment = (r: DepartmentWithCount): Department => ({
  id: r.id,
  name: r.name,
  parentId: r.parent_id,
  sort: r.sort,
  userCount: r.user_count,
})

export async function listDepartments(ctx: ServiceContext): Promise<DepartmentList> {
  return { items: (await listDepartmentRows(ctx.db)).map(toDepartment) }
}

async function mustFind(db: Q, id: number) {
  const row = await findDepartment(db, id)
  if (!row) throw new ServiceError('notFound', 'department.notFound', [id])
  return row
}

async function view(db: Q, id: number): Promise<Department> {
  const row = (await listDepartmentRows(db)).find((r) => r.id === id)
  if (!row) throw new ServiceError('notFound', 'department.notFound', [id])
  return toDepartment(row)
}

/** Sibling names compare whatever their case: 'Cardiology' beside 'cardiology' would confuse everyone. */
async function assertNameFree(db: Q, parentId: number | null, name: string, selfId: number | null): Promise<void> {
  const lower = name.toLowerCase()
  const siblings = await childDepartments(db, parentId)
  if (siblings.some((s) => s.id !== selfId && s.name.toLowerCase() === lower)) throw new ServiceError('conflict', 'rule.exists', [name])
}

async function assertParent(db: Q, parentId: number | null): Promise<void> {
  if (parentId !== null && !(await findDepartment(db, parentId)))
    throw new ServiceError('badRequest', 'department.parentNotFound', [parentId])
}

export async function createDepartment(ctx: ServiceContext, actor: Actor, d: DepartmentCreate): Promise<Department> {
  const now = ctx.now()
  return ctx.db.transaction().execute(async (trx) => {
    await assertParent(trx, d.parentId)
    await assertNameFree(trx, d.parentId, d.name, null)
    const siblings = await childDepartments(trx, d.parentId)
    const sort = siblings.reduce((m, s) => Math.max(m, s.sort + 1), 0)
    const id = await insertDepartment(trx, { name: d.name, parentId: d.parentId, sort, now: now.toISOString() })
    await audit(trx, actor, 'department.create', 'ok', now, { id, name: d.name, parentId: d.parentId }, { type: 'department', id })
    return view(trx, id)
  })
}

export async function renameDepartment(ctx: ServiceContext, actor: Actor, id: number, name: string): Promise<Department> {
  const now = ctx.now()
  return ctx.db.transaction().execute(async (trx) => {
    const self = await mustFind(trx, id)
    await assertNameFree(trx, self.parent_id, name, id)
    await updateDepartmentRow(trx, id, { name }, now.toISOString())
    await audit(trx, actor, 'department.update', 'ok', now, { id, name, oldName: self.name }, { type: 'department', id })
    return view(trx, id)
  })
}

/** Longest chain of parents walked before the data itself is taken to hold a cycle. */
const maxDepth = 10_000

/** A move under itself or one of its descendants would cut the subtree off the tree: refused. */
async function assertNoCycle(db: Q, id: number, parentId: number | null): Promise<void> {
  let at = parentId
  for (let i = 0; at !== null && i < maxDepth; i++) {
    if (at === id) throw new ServiceError('badRequest', 'department.cycle')
    at = (await findDepartment(db, at))?.parent_id ?? null
  }
  if (at !== null) throw new ServiceError('badRequest', 'department.cycle')
}

export async function moveDepartment(ctx: ServiceContext, actor: Actor, id: number, m: DepartmentMove): Promise<Department> {
  const now = ctx.now()
  const at = now.toISOString()
  return ctx.db.transaction().execute(async (trx) => {
    const self = await mustFind(trx, id)
    await assertParent(trx, m.parentId)
    await assertNoCycle(trx, id, m.parentId)
    if (m.parentId !== self.parent_id) await assertNameFree(trx, m.parentId, self.name, id)
    // Renumber the new siblings 0..n so the position is exact whatever sorts they held.
    const siblings = (await childDepartments(trx, m.parentId)).filter((s) => s.id !== id)
    const index = Math.min(m.index, siblings.length)
    const order = [...siblings.slice(0, index).map((s) => s.id), id, ...siblings.slice(index).map((s) => s.id)]
    for (const [sort, sid] of order.entries()) {
      const old = sid === id ? self : siblings.find((s) => s.id === sid)
      if (sid === id) await updateDepartmentRow(trx, id, { parent_id: m.parentId, sort }, at)
      else if (old?.sort !== sort) await updateDepartmentRow(trx, sid, { sort }, at)
    }
    await audit(
      trx,
      actor,
      'department.move',
      'ok',
      now,
      { id, name: self.name, fromParentId: self.parent_id, parentId: m.parentId, index },
      { type: 'department', id },
    )
    return view(trx, id)
  })
}

export async function deleteDepartment(ctx: ServiceContext, actor: Actor, id: number): Promise<void> {
  const now = ctx.now()
  await ctx.db.transaction().execute(async (trx) => {
    const self = await mustFind(trx, id)
    const users = await countUsersInDepartment(trx, id)
    if (users > 0) throw new ServiceError('conflict', 'department.hasUsers', [users])
    const children = await countChildDepartments(trx, id)
    if (children > 0) throw new ServiceError('conflict', 'department.hasChildren', [children])
    await deleteDepartmentRow(trx, id)
    await audit(trx, actor, 'department.delete', 'ok', now, { id, name: self.name, parentId: self.parent_id }, { type: 'department', id })
  })
}
