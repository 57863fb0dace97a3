// The progress upload of the API client (XHR, as fetch reports no upload progress) against a fake
// XMLHttpRequest: the same session header, language and SPEC §8 effects as every other call.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { ApiError, configureApi, uploadWithProgress, type ApiConfig } from '../../../src/api/client.ts'
import { memoryCookieStorage, setCookieStorage, setToken } from '../../../src/state/session.ts'

type Answer = { status: number; text: string } | 'network' | 'timeout'

class FakeXhr {
  static last: FakeXhr | null = null
  static answer: Answer = { status: 200, text: '{"code":0,"msg":"ok","data":{"id":1}}' }
  method = ''
  url = ''
  timeout = 0
  headers: Record<string, string> = {}
  status = 0
  responseText = ''
  sent: unknown = null
  upload: { onprogress: ((e: { lengthComputable: boolean; loaded: number; total: number }) => void) | null } = { onprogress: null }
  onload: (() => void) | null = null
  onerror: (() => void) | null = null
  ontimeout: (() => void) | null = null
  open(method: string, url: string) {
    this.method = method
    this.url = url
  }
  setRequestHeader(name: string, value: string) {
    this.headers[name] = value
  }
  send(body: unknown) {
    this.sent = body
    FakeXhr.last = this
    queueMicrotask(() => {
      this.upload.onprogress?.({ lengthComputable: true, loaded: 50, total: 100 })
      this.upload.onprogress?.({ lengthComputable: true, loaded: 100, total: 100 })
      const a = FakeXhr.answer
      if (a === 'network') return this.onerror?.()
      if (a === 'timeout') return this.ontimeout?.()
      this.status = a.status
      this.responseText = a.text
      this.onload?.()
    })
  }
}

let effects: { [K in 'toast' | 'forceLogout' | 'reload' | 'confirmRelogin']: ReturnType<typeof vi.fn> }

beforeEach(() => {
  vi.stubGlobal('XMLHttpRequest', FakeXhr)
  vi.spyOn(console, 'warn').mockImplementation(() => undefined)
  vi.spyOn(console, 'error').mockImplementation(() => undefined)
  setCookieStorage(memoryCookieStorage())
  setToken('tok-1')
  effects = { toast: vi.fn(), forceLogout: vi.fn(), reload: vi.fn(), confirmRelogin: vi.fn(async () => false) }
  configureApi({ ...(effects as unknown as ApiConfig), language: () => 'en', timeout: 1234 })
})
afterEach(() => {
  vi.unstubAllGlobals()
  vi.restoreAllMocks()
})

const form = () => {
  const f = new FormData()
  f.append('file', new Blob(['x']), 'a.png')
  return f
}

describe('uploadWithProgress', () => {
  it('sends the form with the session header, language, query and time-out; reports progress; resolves the envelope', async () => {
    FakeXhr.answer = { status: 200, text: '{"code":0,"msg":"保存成功！","data":{"id":7}}' }
    const progress: number[] = []
    const f = form()
    const res = await uploadWithProgress(
      'api/public/attachment/saveAttachmentToDetail',
      f,
      { type: 3, studyId: 4, recordId: undefined },
      (p) => progress.push(p),
    )
    expect(res).toEqual({ code: 0, msg: '保存成功！', data: { id: 7 } })
    const xhr = FakeXhr.last!
    expect([xhr.method, xhr.url]).toEqual(['POST', '/api/public/attachment/saveAttachmentToDetail?type=3&studyId=4'])
    expect(xhr.headers).toEqual({ 'Kr-D-Token': 'tok-1', 'Accept-Language': 'en' })
    expect(xhr.timeout).toBe(1234)
    expect(xhr.sent).toBe(f)
    expect(progress).toEqual([0.5, 1])
    expect(effects.toast).not.toHaveBeenCalled()
  })

  it('rejects a refusal with the server message, toasted once (SPEC §8)', async () => {
    FakeXhr.answer = { status: 400, text: '{"code":400,"msg":"上传文件只能是图片格式!"}' }
    const e = await uploadWithProgress('api/x', form(), undefined, () => undefined).catch((err: unknown) => err)
    expect(e).toBeInstanceOf(ApiError)
    expect(e).toMatchObject({ kind: 'code', status: 400, message: '上传文件只能是图片格式!' })
    expect(effects.toast).toHaveBeenCalledTimes(1)
    expect(effects.toast).toHaveBeenCalledWith('上传文件只能是图片格式!', { timeout: 5000 })
  })

  it('applies the session rules: code 401 logs out and reloads', async () => {
    FakeXhr.answer = { status: 200, text: '{"code":401,"msg":"未授权"}' }
    await expect(uploadWithProgress('api/x', form(), undefined, () => undefined)).rejects.toBeInstanceOf(ApiError)
    expect(effects.forceLogout).toHaveBeenCalled()
    expect(effects.reload).toHaveBeenCalled()
  })

  it('rejects a network failure and a time-out with their messages', async () => {
    FakeXhr.answer = 'network'
    await expect(uploadWithProgress('api/x', form(), undefined, () => undefined)).rejects.toMatchObject({ kind: 'network' })
    FakeXhr.answer = 'timeout'
    await expect(uploadWithProgress('api/x', form(), undefined, () => undefined)).rejects.toMatchObject({ kind: 'timeout' })
    expect(effects.toast).toHaveBeenCalledTimes(2)
  })
})
