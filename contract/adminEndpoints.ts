/** The back-office calls of departments, careers, roles and the catalog the client makes. */
import { z } from 'zod'
import { catalogEntry, catalogList, catalogPaths, catalogUpdate } from './catalog.ts'
import { endpoint, noData } from './endpoint.ts'
import { idValue } from './ids.ts'
import {
  career,
  careerInput,
  careerListQuery,
  careerPage,
  department,
  departmentCreate,
  departmentList,
  departmentMove,
  departmentRename,
  organizationPaths,
} from './organization.ts'
import { roleDetail, roleInput, roleList, rolePaths } from './roles.ts'

const withId = <S extends z.ZodRawShape>(shape: S) => z.object({ id: idValue, ...shape })

export const listDepartments = endpoint({
  method: 'GET',
  input: z.object({}),
  output: departmentList,
  request: () => ({ path: organizationPaths.departments }),
})

export const createDepartment = endpoint({
  method: 'POST',
  input: departmentCreate,
  output: department,
  request: (body) => ({ path: organizationPaths.departments, body }),
})

export const renameDepartment = endpoint({
  method: 'PUT',
  input: withId(departmentRename.shape),
  output: department,
  request: ({ id, ...body }) => ({ path: organizationPaths.department(id), body }),
})

export const moveDepartment = endpoint({
  method: 'PUT',
  input: withId(departmentMove.shape),
  output: department,
  request: ({ id, ...body }) => ({ path: organizationPaths.moveDepartment(id), body }),
})

export const deleteDepartment = endpoint({
  method: 'DELETE',
  input: withId({}),
  output: noData,
  request: ({ id }) => ({ path: organizationPaths.department(id) }),
})

/** One keyset page of careers; pass the last page's `next` as `after`. */
export const listCareers = endpoint({
  method: 'GET',
  input: careerListQuery.partial(),
  output: careerPage,
  request: (query) => ({ path: organizationPaths.careers, query }),
})

export const createCareer = endpoint({
  method: 'POST',
  input: careerInput,
  output: career,
  request: (body) => ({ path: organizationPaths.careers, body }),
})

export const updateCareer = endpoint({
  method: 'PUT',
  input: withId(careerInput.shape),
  output: career,
  request: ({ id, ...body }) => ({ path: organizationPaths.career(id), body }),
})

export const deleteCareer = endpoint({
  method: 'DELETE',
  input: withId({}),
  output: noData,
  request: ({ id }) => ({ path: organizationPaths.career(id) }),
})

export const listRoles = endpoint({
  method: 'GET',
  input: z.object({}),
  output: roleList,
  request: () => ({ path: rolePaths.roles }),
})

export const getRole = endpoint({
  method: 'GET',
  input: withId({}),
  output: roleDetail,
  request: ({ id }) => ({ path: rolePaths.role(id) }),
})

export const createRole = endpoint({
  method: 'POST',
  input: roleInput,
  output: roleDetail,
  request: (body) => ({ path: rolePaths.roles, body }),
})

export const updateRole = endpoint({
  method: 'PUT',
  input: withId(roleInput.shape),
  output: roleDetail,
  request: ({ id, ...body }) => ({ path: rolePaths.role(id), body }),
})

export const deleteRole = endpoint({
  method: 'DELETE',
  input: withId({}),
  output: noData,
  request: ({ id }) => ({ path: rolePaths.role(id) }),
})

export const listCatalog = endpoint({
  method: 'GET',
  input: z.object({}),
  output: catalogList,
  request: () => ({ path: catalogPaths.list }),
})

export const updateCatalogEntry = endpoint({
  method: 'PUT',
  input: catalogUpdate.extend({ name: z.string().min(1).max(64) }),
  output: catalogEntry,
  request: ({ name, ...body }) => ({ path: catalogPaths.entry(name), body }),
})
