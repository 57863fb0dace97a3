/**
 * The screens of SPEC §2 under the main layout. The server's permission list names them by
 * `name`; the client builds its router, menu and go-to commands from this one table.
 * `menu` is the sidebar group; `hidden` screens get routes but no menu entry; `noCache`
 * screens are not kept alive when hidden. `title` is an i18n key.
 * Plain data, no zod: the sign-in page's first load reads this table (bench first-load budget).
 */
export interface Screen {
  name: string
  path: string
  title: string
  menu: 'project' | 'templateManage' | 'dataDictionary' | 'patient' | 'sample' | 'data' | 'management' | 'dashboard'
  hidden?: boolean
  noCache?: boolean
  affix?: boolean
  /** Blueprint icon name for the sidebar. */
  icon?: string
}

export const menus = [
  { id: 'dashboard', title: 'route.dashboard', icon: 'dashboard', hidden: false },
  { id: 'project', title: 'route.project', icon: 'projects', hidden: false },
  { id: 'patient', title: 'route.patient', icon: 'people', hidden: false },
  { id: 'sample', title: 'route.sample', icon: 'lab-test', hidden: false },
  { id: 'dataDictionary', title: 'route.dataDictionary', icon: 'book', hidden: false },
  // SPEC §2: /templateManage is a hidden menu; its screens are reached from the dictionary.
  { id: 'templateManage', title: 'route.templateManage', icon: 'form', hidden: true },
  { id: 'data', title: 'route.data', icon: 'database', hidden: false },
  { id: 'management', title: 'route.management', icon: 'cog', hidden: false },
] as const satisfies readonly { id: Screen['menu']; title: string; icon: string; hidden: boolean }[]

export const screens: readonly Screen[] = [
  { name: 'dashboard', path: '/dashboard', title: 'route.dashboard', menu: 'dashboard', affix: true, icon: 'dashboard' },
  { name: 'multiList', path: '/project/multi-list', title: 'route.multiList', menu: 'project', icon: 'office' },
  { name: 'multiDetail', path: '/project/multi-detail', title: 'route.multiDetail', menu: 'project', hidden: true, noCache: true },
  { name: 'multiApply', path: '/project/multi-apply', title: 'route.multiApply', menu: 'project', hidden: true },
  { name: 'multiAdd', path: '/project/multi-add', title: 'route.multiAdd', menu: 'project', hidden: true, noCache: true },
  { name: 'multiEdit', path: '/project/multi-edit', title: 'route.multiEdit', menu: 'project', hidden: true, noCache: true },
  { name: 'singleList', path: '/project/list', title: 'route.list', menu: 'project', icon: 'home' },
  { name: 'patientDetail', path: '/project/patientDetail', title: 'route.patientDetail', menu: 'project', hidden: true },
  { name: 'followUp', path: '/project/follow-up', title: 'route.followUp', menu: 'project', hidden: true },
  { name: 'progress', path: '/project/progress', title: 'route.progress', menu: 'project', hidden: true },
  { name: 'dataLoading', path: '/project/data-loading', title: 'route.dataLoading', menu: 'project', hidden: true },
  { name: 'subjectTemplate', path: '/templateManage/subjectTemplate', title: 'route.subjectTemplate', menu: 'templateManage' },
  {
    name: 'assignSubjectFields',
    path: '/templateManage/assignSubjectFields',
    title: 'route.assignSubjectFields',
    menu: 'templateManage',
    hidden: true,
  },
  { name: 'crfTemplate', path: '/templateManage/crfTemplate', title: 'route.crfTemplate', menu: 'templateManage' },
  {
    name: 'assignCRFFields',
    path: '/templateManage/assignCRFFields',
    title: 'route.assignCRFFields',
    menu: 'templateManage',
    hidden: true,
  },
  { name: 'dictionaryList', path: '/dataDictionary/dictionaryList', title: 'route.dictionaryList', menu: 'dataDictionary', icon: 'list' },
  { name: 'fields', path: '/dataDictionary/fields', title: 'route.fields', menu: 'dataDictionary', hidden: true },
  { name: 'diseaseList', path: '/dataDictionary/diseaseList', title: 'route.diseaseList', menu: 'dataDictionary', icon: 'pulse' },
  { name: 'createFields', path: '/dataDictionary/createFields', title: 'route.createFields', menu: 'dataDictionary', hidden: true },
  { name: 'previewCRF', path: '/dataDictionary/previewCRF', title: 'route.previewCRF', menu: 'dataDictionary', hidden: true },
  { name: 'crfManager', path: '/dataDictionary/crf-template', title: 'route.crfManager', menu: 'dataDictionary', icon: 'document' },
  {
    name: 'subjectManager',
    path: '/dataDictionary/subject-template',
    title: 'route.subjectManager',
    menu: 'dataDictionary',
    icon: 'properties',
  },
  { name: 'editCrfTemp', path: '/dataDictionary/edit-crf-temp', title: 'route.editCrfTemp', menu: 'dataDictionary', hidden: true },
  {
    name: 'editSubjectTemp',
    path: '/dataDictionary/edit-subject-temp',
    title: 'route.editSubjectTemp',
    menu: 'dataDictionary',
    hidden: true,
  },
  { name: 'patientList', path: '/patient/index', title: 'route.patientList', menu: 'patient', icon: 'people' },
  { name: 'sampleList', path: '/sample/index', title: 'route.sampleList', menu: 'sample', icon: 'lab-test' },
  { name: 'dataList', path: '/data/list', title: 'route.dataList', menu: 'data', icon: 'th' },
  { name: 'applyList', path: '/data/apply-list', title: 'route.applyList', menu: 'data', icon: 'inbox' },
  { name: 'applyDetail', path: '/data/apply-detail', title: 'route.applyDetail', menu: 'data', hidden: true },
  { name: 'dataApply', path: '/data/apply', title: 'route.dataApply', menu: 'data', icon: 'send-message' },
  { name: 'dataSearch', path: '/data/search', title: 'route.dataSearch', menu: 'data', icon: 'search' },
  { name: 'dataRecommend', path: '/data/recommend', title: 'route.dataRecommend', menu: 'data', icon: 'thumbs-up' },
  { name: 'catalog', path: '/management/catalog', title: 'route.catalog', menu: 'management', icon: 'folder-close' },
  { name: 'user', path: '/management/user', title: 'route.user', menu: 'management', icon: 'user' },
  { name: 'department', path: '/management/department', title: 'route.department', menu: 'management', icon: 'office' },
  { name: 'career', path: '/management/career', title: 'route.career', menu: 'management', icon: 'briefcase' },
  { name: 'role', path: '/management/role', title: 'route.role', menu: 'management', icon: 'people' },
  { name: 'account', path: '/management/account', title: 'route.account', menu: 'management', icon: 'id-number' },
  { name: 'auditLog', path: '/management/audit-log', title: 'route.auditLog', menu: 'management', icon: 'history' },
]

export const screenNames = screens.map((s) => s.name)
