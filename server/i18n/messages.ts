/** Server messages in both languages; SPEC wording is kept exactly where SPEC gives one. */
const zh = {
  ok: '操作成功',
  'error.unknown': '未知错误，请稍后重试',
  'error.notFound': '接口不存在：{0}',
  'error.badJson': '请求体不是合法的 JSON',
  'error.badContentType': '不支持的内容类型：{0}',
  'error.tooLarge': '请求体过大，上限为 {0} 字节',
  'error.tooMany': '请求过于频繁，请 {0} 秒后再试',
  'field.required': '请输入 {0}',
  'field.type': '{0} 的类型不正确，应为 {1}',
  'field.tooLong': '{0} 长度不能超过 {1} 个字符',
  'field.tooShort': '{0} 长度不能少于 {1} 个字符',
  'field.invalid': '{0} 的值不合法',
  'field.unknown': '不允许的字段：{0}',
  'auth.mismatch': '您输入的用户名和密码不匹配，请重新输入！',
  'auth.locked': '登录失败次数过多，账号已锁定，请 {0} 分钟后再试',
  'auth.noToken': '未登录或登录已失效，请重新登录',
  'auth.illegalToken': '非法的令牌，请重新登录',
  'auth.tokenEnded': '你已在别处登出或令牌已失效，请重新登录',
  'auth.tokenExpired': '登录已过期，请重新登录',
  'auth.loggedOut': '已退出登录',
  'auth.otherUser': '只能操作自己的账号',
  'password.oldRequired': '请输入原密码',
  'password.newRequired': '请设置新密码',
  'password.length': '密码长度介于6到16位之间',
  'password.charset': '密码只能包含数字和字母',
  'password.tooLong': '密码长度不能超过 {0} 位',
  'password.sameAsOld': '新密码不能与旧密码相同',
  'password.oldWrong': '原密码不正确',
  'password.changed': '密码修改成功',
}

const en: Record<keyof typeof zh, string> = {
  ok: 'Operation success',
  'error.unknown': 'Unknown error, please try again later',
  'error.notFound': 'No such interface: {0}',
  'error.badJson': 'The request body is not valid JSON',
  'error.badContentType': 'Unsupported content type: {0}',
  'error.tooLarge': 'The request body is too large; the limit is {0} bytes',
  'error.tooMany': 'Too many requests, please retry in {0} seconds',
  'field.required': 'Please input {0}',
  'field.type': '{0} has the wrong type; expected {1}',
  'field.tooLong': '{0} must be at most {1} characters',
  'field.tooShort': '{0} must be at least {1} characters',
  'field.invalid': '{0} is not valid',
  'field.unknown': 'Field not allowed: {0}',
  'auth.mismatch': 'The username and the password you typed do not match. Please retype them!',
  'auth.locked': 'Too many failed sign-ins; the account is locked, retry in {0} minutes',
  'auth.noToken': 'Not signed in or the session has ended; please sign in again',
  'auth.illegalToken': 'Illegal token; please sign in again',
  'auth.tokenEnded': 'You have been logged out elsewhere or the token has ended; please sign in again',
  'auth.tokenExpired': 'The session has expired; please sign in again',
  'auth.loggedOut': 'Logged out',
  'auth.otherUser': 'You can only act on your own account',
  'password.oldRequired': 'Please enter the old password',
  'password.newRequired': 'Please set a new password',
  'password.length': 'The password must be 6 to 16 characters long',
  'password.charset': 'The password may contain only letters and digits, with at least one of each',
  'password.tooLong': 'The password must be at most {0} characters',
  'password.sameAsOld': 'The new password must differ from the old one',
  'password.oldWrong': 'The old password is wrong',
  'password.changed': 'Password changed',
}

export type Lang = 'zh' | 'en'
export type MessageKey = keyof typeof zh
export const dictionaries: Record<Lang, Record<MessageKey, string>> = { zh, en }

export function message(lang: Lang, key: MessageKey, params: readonly (string | number)[] = []): string {
  return dictionaries[lang][key].replace(/\{(\d+)\}/g, (m, i: string) => {
    const v = params[Number(i)]
    return v === undefined ? m : String(v)
  })
}

/** Accept-Language: the best of zh and en by q-value; zh when neither is named. */
export function pickLang(header: string | undefined): Lang {
  if (!header) return 'zh'
  let best: { lang: Lang; q: number } | undefined
  for (const part of header.split(',')) {
    const [tag = '', ...params] = part.trim().toLowerCase().split(';')
    const qParam = params.find((p) => p.trim().startsWith('q='))
    const q = qParam ? Number(qParam.trim().slice(2)) : 1
    const lang: Lang | undefined = tag.startsWith('zh') ? 'zh' : tag.startsWith('en') ? 'en' : undefined
    if (lang && Number.isFinite(q) && q > 0 && (!best || q > best.q)) best = { lang, q }
  }
  return best?.lang ?? 'zh'
}
