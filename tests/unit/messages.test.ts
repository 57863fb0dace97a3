import { describe, expect, it } from 'vitest'
import { dictionaries, fieldLabel, message, pickLang, type MessageKey } from '../../server/i18n/messages.ts'

const placeholders = (text: string) => [...text.matchAll(/\{(\d+)\}/g)].map((m) => m[1]).sort()
const keys = (lang: 'zh' | 'en') => Object.keys(dictionaries[lang]).sort() as MessageKey[]

describe('pickLang (Accept-Language)', () => {
  it.each([
    [undefined, 'zh'],
    ['', 'zh'],
    ['en', 'en'],
    ['EN', 'en'],
    ['en-US', 'en'],
    ['en-GB,en;q=0.9', 'en'],
    ['zh', 'zh'],
    ['zh-CN', 'zh'],
    ['zh-TW,zh;q=0.9', 'zh'],
    ['zh-CN,zh;q=0.9,en;q=0.8', 'zh'],
    ['en;q=0.8, zh;q=0.9', 'zh'],
    ['zh;q=0.5, en', 'en'],
    ['zh;q=0.5,en;q=0.6', 'en'],
    [' en ; q=0.7 , zh ; q=0.3 ', 'en'],
    ['fr-FR, de;q=0.9', 'zh'],
    ['fr, en;q=0.1', 'en'],
    ['*', 'zh'],
    ['en;q=0', 'zh'],
    ['en;q=0, zh;q=0.1', 'zh'],
    ['en;q=abc, zh;q=0.2', 'zh'],
    ['en, zh', 'en'],
    ['zh, en', 'zh'],
  ])('%j → %s', (header, lang) => {
    expect(pickLang(header)).toBe(lang)
  })
})

describe('dictionaries', () => {
  it('zh and en have the same keys, none of them empty', () => {
    expect(keys('en')).toEqual(keys('zh'))
    for (const lang of ['zh', 'en'] as const) {
      for (const key of keys(lang)) expect(dictionaries[lang][key].trim(), `${lang} ${key}`).not.toBe('')
    }
  })

  it('each message has the same placeholders in both languages', () => {
    for (const key of keys('zh')) expect(placeholders(dictionaries.en[key]), key).toEqual(placeholders(dictionaries.zh[key]))
  })

  it('keeps the SPEC §5 wording exactly, and the §8 sign-in sentence in English', () => {
    expect(message('zh', 'password.oldRequired')).toBe('请输入原密码')
    expect(message('zh', 'password.newRequired')).toBe('请设置新密码')
    expect(message('zh', 'password.length')).toBe('密码长度介于6到16位之间')
    expect(message('zh', 'password.charset')).toBe('密码只能包含数字和字母')
    expect(message('zh', 'password.sameAsOld')).toBe('新密码不能与旧密码相同')
    expect(message('en', 'auth.mismatch')).toBe('The username and the password you typed do not match. Please retype them!')
    expect(message('zh', 'auth.mismatch')).toBe('您输入的用户名和密码不匹配，请重新输入！')
  })

  it('English messages are English', () => {
    for (const key of keys('en')) expect(dictionaries.en[key], key).not.toMatch(/[\u4e00-\u9fff]/)
  })
})

describe('request fields in messages', () => {
  it('are named by their label in the caller’s language, whether zod or a service refuses them', () => {
    expect(message('zh', 'field.required', ['reason'])).toBe('请输入 原因')
    expect(message('en', 'field.required', ['reason'])).toBe('Please input reason')
    expect(message('zh', 'field.tooLong', ['subjectNo', 50])).toBe('研究对象编号 长度不能超过 50 个字符')
    expect(message('en', 'field.tooLong', ['subjectNo', 50])).toBe('subject number must be at most 50 characters')
    expect(message('en', 'field.invalid', ['checklist.inclusion'])).toBe('answers to the inclusion criteria is not valid')
  })

  it('go by the whole path: a key a person chose, or a field without a label, is shown as it is spelled', () => {
    // A sub form keyed "reason" is not the reason field.
    expect(fieldLabel('zh', 'rows.reason')).toBe('rows.reason')
    expect(fieldLabel('en', 'preposeIds.0')).toBe('preposeIds.0')
    expect(fieldLabel('zh', 'username')).toBe('username')
    expect(fieldLabel('zh', 'toString')).toBe('toString')
    // An item of a labelled list is that list's label and its place.
    expect(fieldLabel('zh', 'templateIds.1')).toBe('表单ID（第 2 项）')
    expect(fieldLabel('en', 'templateIds.0')).toBe('form ids (item 1)')
    expect(message('en', 'field.invalid', ['after'])).toBe('page position is not valid')
    // Only the field parameter is a field: other messages, and a field's other parameters, are as given.
    expect(message('zh', 'field.unknown', ['reason'])).toBe('不允许的字段：reason')
    expect(message('zh', 'field.type', ['quantity', 'status'])).toBe('数量 的类型不正确，应为status')
    expect(message('zh', 'rule.exists', ['reason'])).toBe('reason已存在')
  })

  it('every label is a message of its own in both languages, English ones in lower case as they sit mid-sentence', () => {
    const labels = keys('en').filter((k) => k.startsWith('fieldLabel.'))
    expect(labels.length).toBeGreaterThan(20)
    for (const k of labels) expect(dictionaries.en[k], k).toMatch(/^[a-z]/)
  })
})

describe('message placeholders', () => {
  it('substitutes {0} and {1} in order', () => {
    expect(message('zh', 'field.type', ['username', '文本'])).toBe('username 的类型不正确，应为文本')
    expect(message('en', 'field.type', ['username', 'text'])).toBe('username has the wrong type; expected text')
  })

  it('writes numbers as they are', () => {
    expect(message('en', 'error.tooLarge', [1048576])).toBe('The request body is too large; the limit is 1048576 bytes')
    expect(message('zh', 'auth.locked', [15])).toBe('登录失败次数过多，账号已锁定，请 15 分钟后再试')
  })

  it('words an English count by its number: one project, two projects', () => {
    expect(message('en', 'center.inUse', [1])).toBe('1 project uses this center: it cannot be deleted')
    expect(message('en', 'center.inUse', [2])).toBe('2 projects use this center: it cannot be deleted')
    expect(message('en', 'dataLoad.refused', [1])).toBe('1 cell is wrong: nothing was written; the error report names each one')
    expect(message('en', 'visit.hasRecords', ['V1', 1])).toBe('Visit V1 has 1 form entered and cannot be deleted')
    expect(message('zh', 'center.inUse', [1])).toBe(message('zh', 'center.inUse', [2]).replace('2', '1'))
  })

  it('leaves a placeholder without a value visible rather than writing "undefined"', () => {
    expect(message('en', 'field.type', ['id'])).toBe('id has the wrong type; expected {1}')
    expect(message('zh', 'field.required')).toBe('请输入 {0}')
  })

  it('inserts values literally, even ones that look like patterns', () => {
    expect(message('en', 'field.required', ['$&'])).toBe('Please input $&')
    expect(message('en', 'field.required', ['{1}'])).toBe('Please input {1}')
    expect(message('zh', 'field.required', ['0'])).toBe('请输入 0')
  })

  it('answers a message without placeholders unchanged', () => {
    expect(message('en', 'ok', ['ignored'])).toBe('Operation success')
  })
})
