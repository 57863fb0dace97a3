import type { Kysely } from 'kysely'
import { builtinRoleKeys, permissions, type BuiltinRoleKey, type Permission } from '../../contract/permissions.ts'
import { menus, screens } from '../../contract/screens.ts'
import type { Database } from '../db/database.ts'
import { insertMissingCatalogEntries } from '../db/repositories/catalog.ts'
import { findBuiltinRole, insertGrants, insertRole } from '../db/repositories/roles.ts'

interface BuiltinRole {
  nameZh: string
  nameEn: string
  remarks: string
  screens: readonly string[]
  permissions: readonly Permission[]
}

const projectScreens = [
  'dashboard',
  'multiList',
  'multiDetail',
  'multiApply',
  'singleList',
  'patientDetail',
  'patientList',
  'sampleList',
  'followUp',
  'progress',
]
/** Data loading, by the project's action menu or the Data List entry: for roles that import or export. */
const dataLoadScreens = ['dataLoading', 'dataList']
const dictionaryScreens = ['dictionaryList', 'fields', 'diseaseList', 'previewCRF', 'crfManager', 'subjectManager']
const viewAll = permissions.filter((p) => p.endsWith('.view'))

/**
 * The grants the built-in roles start with (issue 8). They are data from then on: an
 * administrator edits them on the role screen, and a later start never puts them back.
 * The system administrator holds everything without stored grants (contract/permissions.ts).
 */
export const builtinRoles: Record<BuiltinRoleKey, BuiltinRole> = {
  sysAdmin: { nameZh: '系统管理员', nameEn: 'System administrator', remarks: '', screens: [], permissions: [] },
  researchAdmin: {
    nameZh: '科研管理员',
    nameEn: 'Research administrator',
    remarks: '',
    // Not the system audit log: it lists every project's subjects, past the projects they are a member of.
    screens: screens.filter((s) => s.menu !== 'management').map((s) => s.name),
    permissions: permissions.filter((p) => /^(dictionary|template|project|subject|dataLoad)\./.test(p) || p === 'user.view'),
  },
  researcher: {
    nameZh: '研究者',
    nameEn: 'Researcher',
    remarks: '',
    screens: [...projectScreens, ...dictionaryScreens, ...dataLoadScreens, 'dataSearch', 'dataApply', 'applyList', 'applyDetail'],
    permissions: [
      'dictionary.view',
      'template.view',
      'project.view',
      'subject.view',
      'subject.create',
      'subject.edit',
      'subject.export',
      // The investigator signs the CRFs and may unblind in an emergency; the project role decides who does.
      'subject.sign',
      'subject.unblind',
      'dataLoad.export',
    ],
  },
  dataEntry: {
    nameZh: '数据录入员',
    nameEn: 'Data entry',
    remarks: '',
    screens: [...projectScreens, ...dataLoadScreens],
    permissions: ['project.view', 'subject.view', 'subject.create', 'subject.edit', 'dataLoad.import'],
  },
  monitor: {
    nameZh: '监查员',
    nameEn: 'Monitor',
    remarks: '',
    screens: [...projectScreens, ...dictionaryScreens],
    // Not the system audit log: it lists every project's enrolments and samples and every sign-in,
    // past the centers and queues a monitor's project role allows. A subject's own audit trail is
    // on its detail screen, inside that scope.
    permissions: viewAll.filter((p) => !/^(user|organization|role|catalog|audit)\./.test(p)),
  },
}

/** Built-in roles and catalog entries that are missing: safe on every start, never overwrites edits. */
export async function seedAccessData(db: Kysely<Database>, now: Date): Promise<void> {
  const at = now.toISOString()
  await db.transaction().execute(async (trx) => {
    for (const key of builtinRoleKeys) {
      if (await findBuiltinRole(trx, key)) continue
      const role = builtinRoles[key]
      const id = await insertRole(trx, {
        name_zh: role.nameZh,
        name_en: role.nameEn,
        remarks: role.remarks,
        builtin: key,
        created_at: at,
        updated_at: at,
      })
      const known = new Set(screens.map((s) => s.name))
      await insertGrants(trx, id, [
        ...role.screens.filter((s) => known.has(s)).map((name) => ({ kind: 'screen' as const, name })),
        ...role.permissions.map((name) => ({ kind: 'permission' as const, name })),
      ])
    }
    // Titles start empty: the client shows its own translation until an administrator renames one.
    const entries = [
      ...menus.map((m, i) => ({
        name: `menu:${m.id}`,
        kind: 'menu' as const,
        menu: null,
        sort: i,
        icon: m.icon,
        hidden: m.hidden ? 1 : 0,
      })),
      ...screens.map((s, i) => ({
        name: s.name,
        kind: 'screen' as const,
        menu: s.menu,
        sort: i,
        icon: s.icon ?? '',
        hidden: s.hidden ? 1 : 0,
      })),
    ]
    await insertMissingCatalogEntries(
      trx,
      entries.map((e) => ({ ...e, title_zh: '', title_en: '', updated_at: at })),
    )
  })
}
