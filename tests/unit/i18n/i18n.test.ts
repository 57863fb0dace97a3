import { afterEach, describe, expect, it, vi } from 'vitest'
import {
  defaultLang,
  getLang,
  hasKey,
  i18n,
  isLang,
  setLang,
  subscribe,
  t,
  translate,
  translateIn,
  type Lang,
} from '../../../src/i18n/index.ts'

afterEach(() => setLang('zh'))

describe('language state', () => {
  it('starts in Chinese', () => {
    expect(defaultLang).toBe('zh')
    expect(getLang()).toBe('zh')
    expect(t('message.switchLanguageSuccess')).toBe('切换语言成功')
  })
  it('switches to English and back, telling subscribers once per change', () => {
    const seen: Lang[] = []
    const off = subscribe((lang) => seen.push(lang))
    setLang('en')
    expect(getLang()).toBe('en')
    expect(i18n.locale()).toBe('en')
    expect(t('message.switchLanguageSuccess')).toBe('Switch Language Success')
    setLang('en') // no change, no event
    setLang('zh')
    off()
    setLang('en')
    expect(seen).toEqual(['en', 'zh'])
  })
  it('refuses unknown languages', () => {
    expect(() => setLang('fr' as Lang)).toThrow(RangeError)
    expect(getLang()).toBe('zh')
    expect(isLang('en')).toBe(true)
    expect(isLang('EN')).toBe(false)
    expect(isLang(undefined)).toBe(false)
  })
  it('a listener that unsubscribes while notified does not break the others', () => {
    const second = vi.fn()
    const off = subscribe(() => off())
    const off2 = subscribe(second)
    setLang('en')
    expect(second).toHaveBeenCalledWith('en')
    off2()
  })
})

describe('t and translate', () => {
  it('substitute {0} / {1} and {name}', () => {
    expect(t('validatorMsg.length', [1, 20])).toBe('长度限制在1到20个字符')
    expect(translate('en', 'validatorMsg.length', [1, 20])).toBe('Length limits 1 to 20 characters')
    expect(translate('en', 'command.badArgs', { command: 'Split right' })).toBe('Invalid arguments for the command "Split right"')
  })
  it('translate speaks the asked language whatever the current one', () => {
    setLang('en')
    expect(translateIn('zh', 'command.logout')).toBe('退出登录')
    expect(translate('en', 'command.logout')).toBe('Log out')
    expect(t('command.logout')).toBe('Log out')
  })
  it('returns the key itself when it is missing, and never a group', () => {
    expect(t('no.such.key')).toBe('no.such.key')
    expect(t('route')).toBe('route')
    expect(hasKey('route')).toBe(false)
    expect(hasKey('route.multiList')).toBe(true)
    expect(hasKey('route.multiList.deeper')).toBe(false)
    expect(hasKey('toString')).toBe(false)
  })
})

describe('SPEC texts, exactly', () => {
  const zh = (key: string) => translate('zh', key)
  const en = (key: string) => translate('en', key)
  it('change password (§5)', () => {
    expect(['oldRequired', 'newRequired', 'length', 'charset', 'sameAsOld', 'mismatch'].map((k) => zh(`changePwd.${k}`))).toEqual([
      '请输入原密码',
      '请设置新密码',
      '密码长度介于6到16位之间',
      '密码只能包含数字和字母',
      '新密码不能与旧密码相同',
      '两次密码输入不一致',
    ])
    expect(en('changePwd.hint')).toBe('6 to 16 characters, case-sensitive')
  })
  it('layout and login (§2, §8)', () => {
    expect(en('message.switchLanguageSuccess')).toBe('Switch Language Success')
    expect(en('message.switchSizeSuccess')).toBe('Switch Size Success')
    expect(en('message.fullscreenUnsupported')).toBe('you browser can not work')
    expect(en('app.loading')).toBe('Loading...')
    expect(en('login.mismatch')).toBe('The username and the password you typed do not match. Please retype them!')
  })
  it('re-login dialog (§8)', () => {
    expect(['title', 'message', 'confirm', 'cancel'].map((k) => zh(`relogin.${k}`))).toEqual([
      '确定登出',
      '你已被登出，可以取消继续留在该页面，或者重新登录',
      '重新登录',
      '取消',
    ])
  })
  it('image and deletion messages (§5, §8)', () => {
    expect(zh('image.typeError')).toBe('上传文件只能是图片格式!')
    expect(zh('image.sizeError')).toBe('上传文件大小不能超过 5MB!')
    expect(['saveSuccess', 'saveFailed', 'deleteSuccess', 'deleteFailed', 'uploading', 'deleting'].map((k) => zh(`image.${k}`))).toEqual([
      '保存成功！',
      '保存失败！',
      '删除成功！',
      '删除失败！',
      '正在上传中...',
      '正在删除中...',
    ])
    expect(en('deletion.confirm')).toBe('Are you sure to delete the selected content?')
    expect(en('deletion.irreversible')).toBe('Deletion is irreversible')
    expect(en('deletion.queueHasObjects')).toBe('There are research objects under the current queue, deletion failed')
  })
  it('a CRF’s collect type and an index’s category (§3) name the research object as the product does, not a bare “Object”', () => {
    const read = (lang: typeof zh, group: string, codes: string[]) => codes.map((c) => lang(`${group}.${c}`)).join(' / ')
    const types = ['all', 'object', 'followUp', 'interview', 'biomaterial', 'other']
    const categories = ['all', 'object', 'followUp', 'interview', 'other', 'sample']
    expect(read(en, 'template.collectType', types)).toBe('All / Research object / Follow up / Interview / Biomaterial / Other')
    expect(read(zh, 'template.collectType', types)).toBe('全部 / 研究对象 / 随访 / 访视 / 生物样本 / 其他')
    expect(read(en, 'indicator.categories', categories)).toBe('All / Research object / Follow up / Interview / Other / Sample')
    expect(read(zh, 'indicator.categories', categories)).toBe('全部 / 研究对象 / 随访 / 访视 / 其他 / 样本')
  })
  it('language names are the same in both languages', () => {
    expect([zh('lang.zh'), en('lang.zh'), zh('lang.en'), en('lang.en')]).toEqual(['中文', '中文', 'English', 'English'])
  })
  it('every screen of SPEC §2 has a title in both languages', () => {
    const screens = [
      'project',
      'multiList',
      'multiDetail',
      'multiApply',
      'multiAdd',
      'multiEdit',
      'list',
      'patientDetail',
      'templateManage',
      'subjectTemplate',
      'assignSubjectFields',
      'crfTemplate',
      'assignCRFFields',
      'dataDictionary',
      'dictionaryList',
      'fields',
      'diseaseList',
      'createFields',
      'previewCRF',
      'crfManager',
      'subjectManager',
      'editCrfTemp',
      'editSubjectTemp',
      'patient',
      'patientList',
      'sample',
      'sampleList',
      'dataList',
      'applyList',
      'applyDetail',
      'dataApply',
      'dataSearch',
      'dataRecommend',
      'management',
      'catalog',
      'user',
      'department',
      'career',
      'role',
      'account',
      'dashboard',
      'page404',
      'page401',
      'login',
    ]
    expect(screens.filter((s) => !hasKey(`route.${s}`, 'zh') || !hasKey(`route.${s}`, 'en'))).toEqual([])
    // Titles differ between the languages except the numbered error pages.
    expect(screens.filter((s) => zh(`route.${s}`) === en(`route.${s}`))).toEqual(['page404', 'page401'])
  })
})

describe('English fetched on demand (a fresh module, before anything loaded it)', () => {
  const fresh = async () => {
    vi.resetModules()
    return import('../../../src/i18n/index.ts')
  }
  afterEach(() => {
    vi.doUnmock('../../../src/i18n/en.ts')
    vi.resetModules()
  })

  it('speaks Chinese, the fallback, until English is here; the switch happens once it is', async () => {
    const i = await fresh()
    expect(i.isLoaded('zh')).toBe(true)
    expect(i.isLoaded('en')).toBe(false)
    expect(i.translate('en', 'command.logout')).toBe('退出登录')
    const seen: string[] = []
    i.subscribe((lang) => seen.push(lang))
    const switching = i.setLang('en')
    expect(i.getLang()).toBe('zh')
    await switching
    expect(i.getLang()).toBe('en')
    expect(i.t('command.logout')).toBe('Log out')
    expect(seen).toEqual(['en'])
  })

  it('a language asked for while English loads wins', async () => {
    const i = await fresh()
    const toEnglish = i.setLang('en')
    await i.setLang('zh')
    await toEnglish
    expect(i.getLang()).toBe('zh')
    expect(i.isLoaded('en')).toBe(true)
  })

  it('a dictionary that cannot be fetched leaves the language as it was, and may be tried again', async () => {
    vi.doMock('../../../src/i18n/en.ts', () => {
      throw new Error('offline')
    })
    const i = await fresh()
    await expect(i.setLang('en')).rejects.toThrow()
    expect(i.getLang()).toBe('zh')
    expect(i.isLoaded('en')).toBe(false)
    vi.doUnmock('../../../src/i18n/en.ts')
    await i.setLang('en')
    expect(i.getLang()).toBe('en')
  })
})
