/**
 * A command's test context (DESIGN §4): plain objects and vi.fn() spies, no stores, no DOM.
 *
 *   const ctx = testContext({ lang: 'en', panes: { tabs: [tab('/a'), tab('/b')] } })
 *   await execute(command, ctx, 'test')
 *   expect(ctx.navigate).toHaveBeenCalledWith('/dashboard')
 *
 * Overrides give values, or implementations that are wrapped in spies, so every door of the
 * context stays observable. `t` speaks `ctx.lang`, and the default `settings.setLang` changes
 * `ctx.lang`, as the real context does: a toast written after a switch is in the new language.
 */
import { expect, vi, type Mock } from 'vitest'
import type {
  Capability,
  CommandApi,
  CommandContext,
  CurrentProject,
  FocusedRecord,
  Intent,
  Lang,
  Size,
  SplitDirection,
  TabInfo,
} from '../../commands/context.ts'
import type { Endpoint } from '../../contract/endpoint.ts'
import type { Permission } from '../../contract/permissions.ts'
import { parseScreenPath } from '../../contract/screenPaths.ts'
import { translate } from '../../src/i18n/index.ts'
import { formatTime } from '../../src/lib/time.ts'

type Params = Record<string, string | number> | (string | number)[]

export interface TestContext extends CommandContext {
  t: Mock<(key: string, params?: Params) => string>
  navigate: Mock<(path: string) => void>
  /** Generic methods: callable as the context's, inspectable as spies. */
  api: { [K in keyof CommandApi]: CommandApi[K] & Mock }
  invalidate: Mock<(resource: string) => void>
  settings: {
    setLang: Mock<(lang: Lang) => Promise<void>>
    setSize: Mock<(size: Size) => void>
    toggleSidebar: Mock<() => void>
    toggleFullscreen: Mock<() => boolean>
  }
  session: {
    logout: Mock<() => Promise<void>>
  }
  currentProject: {
    value: CurrentProject | null
    set: Mock<(project: CurrentProject | null) => void>
  }
  panes: {
    tabs: readonly TabInfo[]
    visibleCount: number
    close: Mock<(path?: string) => void>
    show: Mock<(path: string) => void>
    openToSide: Mock<(path: string, direction?: SplitDirection) => void>
    closeOthers: Mock<() => void>
    closeAll: Mock<() => void>
    split: Mock<(direction: SplitDirection, path?: string) => void>
    focusNext: Mock<() => void>
    focusPrevious: Mock<() => void>
    canReopen: boolean
    reopenClosed: Mock<() => void>
  }
  ui: {
    toast: Mock<(message: string, intent?: Intent) => void>
    openPalette: Mock<(mode?: string) => void>
    pickFile: Mock<(accept: string) => Promise<File | null>>
    confirm: Mock<(message: string, detail?: string, yes?: string, cautious?: boolean) => Promise<boolean>>
    reason: Mock<(question: string, detail?: string) => Promise<string | null>>
    open: CommandContext['ui']['open'] & Mock
    openChangePassword: Mock<() => void>
    openShortcuts: Mock<() => void>
  }
}

/** A server as a test gives it: answers a call of `endpoint` with the (already parsed) `input`. */
export type Answer = (endpoint: Endpoint<unknown, unknown>, input: unknown) => unknown

export interface TestOverrides {
  signedIn?: boolean
  /** The permissions the user holds; every one when not given (an administrator). */
  grants?: readonly Permission[]
  /** The screens the user may open; every one when not given. */
  screens?: readonly string[]
  path?: string
  lang?: Lang
  size?: Size
  t?: (key: string, params?: Params) => string
  navigate?: (path: string) => void
  /** The answers of typed calls; each input and answer is parsed with the endpoint's schemas, as the real client does. */
  answer?: Answer
  api?: Partial<Pick<CommandContext['api'], 'upload' | 'download'>>
  invalidate?: (resource: string) => void
  settings?: Partial<CommandContext['settings']>
  session?: Partial<CommandContext['session']>
  /** The project the user works in now; none when not given. */
  currentProject?: CurrentProject | null
  panes?: Partial<CommandContext['panes']>
  ui?: Partial<CommandContext['ui']>
  /** What the focused view published: its record and its capabilities. */
  record?: FocusedRecord
  provides?: readonly (readonly [Capability<never>, unknown])[]
}

/** One capability a test's focused view offers. */
export const offer = <T>(cap: Capability<T>, value: T) => [cap as unknown as Capability<never>, value] as const

/** An API call no test set up: it fails, so a command that calls the API unexpectedly shows it. */
const unanswered = <T>(path: string): Promise<T> => Promise.reject(new Error(`unexpected API call ${path}`))

export const tab = (path: string, affix = false): TabInfo => ({ path, title: path, affix })

/** Two ordinary tabs beside the affixed dashboard, two panes on screen, something to reopen. */
export const defaultTabs: readonly TabInfo[] = [tab('/dashboard', true), tab('/project/multi-list'), tab('/data/list')]

export function testContext(overrides: TestOverrides = {}): TestContext {
  const o = overrides
  const ctx: TestContext = {
    t: vi.fn((key: string, params?: Params) => translate(ctx.lang, key, params)),
    signedIn: o.signedIn ?? true,
    can: (permission) => (o.grants ? o.grants.includes(permission) : true),
    canOpen: (screen) => (o.screens ? o.screens.includes(screen) : true),
    path: o.path ?? '/project/multi-list',
    focus: null,
    lang: o.lang ?? 'zh',
    size: o.size ?? 'default',
    time: (at) => formatTime(at, '{y}-{m}-{d} {h}:{i}', ctx.lang) ?? at,
    navigate: vi.fn(o.navigate ?? (() => undefined)),
    api: {
      call: vi.fn(async (endpoint: Endpoint<unknown, unknown>, input: unknown) => {
        const parsed = endpoint.input.parse(input)
        const request = endpoint.request(parsed)
        if (!o.answer) return unanswered(request.path)
        return endpoint.output.parse(await o.answer(endpoint, parsed))
      }) as CommandApi['call'] & Mock,
      upload: vi.fn(o.api?.upload ?? unanswered) as CommandApi['upload'] & Mock,
      download: vi.fn(o.api?.download ?? (() => Promise.resolve())) as CommandApi['download'] & Mock,
    },
    invalidate: vi.fn(o.invalidate ?? (() => undefined)),
    settings: {
      setLang: vi.fn(
        o.settings?.setLang ??
          ((lang: Lang) => {
            ctx.lang = lang
            return Promise.resolve()
          }),
      ),
      setSize: vi.fn(
        o.settings?.setSize ??
          ((size: Size) => {
            ctx.size = size
          }),
      ),
      toggleSidebar: vi.fn(o.settings?.toggleSidebar ?? (() => undefined)),
      toggleFullscreen: vi.fn(o.settings?.toggleFullscreen ?? (() => true)),
    },
    session: {
      logout: vi.fn(o.session?.logout ?? (() => Promise.resolve())),
    },
    currentProject: {
      value: o.currentProject ?? null,
      // As the real store does: the new choice is what the context reads next.
      set: vi.fn((project: CurrentProject | null) => {
        ctx.currentProject.value = project
      }),
    },
    panes: {
      tabs: o.panes?.tabs ?? defaultTabs,
      visibleCount: o.panes?.visibleCount ?? 2,
      close: vi.fn(o.panes?.close ?? (() => undefined)),
      show: vi.fn(o.panes?.show ?? (() => undefined)),
      openToSide: vi.fn(o.panes?.openToSide ?? (() => undefined)),
      closeOthers: vi.fn(o.panes?.closeOthers ?? (() => undefined)),
      closeAll: vi.fn(o.panes?.closeAll ?? (() => undefined)),
      split: vi.fn(o.panes?.split ?? (() => undefined)),
      focusNext: vi.fn(o.panes?.focusNext ?? (() => undefined)),
      focusPrevious: vi.fn(o.panes?.focusPrevious ?? (() => undefined)),
      canReopen: o.panes?.canReopen ?? true,
      reopenClosed: vi.fn(o.panes?.reopenClosed ?? (() => undefined)),
    },
    ui: {
      toast: vi.fn(o.ui?.toast ?? (() => undefined)),
      openPalette: vi.fn(o.ui?.openPalette ?? (() => undefined)),
      pickFile: vi.fn(o.ui?.pickFile ?? (() => Promise.resolve(null))),
      confirm: vi.fn(o.ui?.confirm ?? (() => Promise.resolve(true))),
      reason: vi.fn(o.ui?.reason ?? (() => Promise.resolve('a reason'))),
      open: vi.fn(o.ui?.open ?? (() => undefined)) as CommandContext['ui']['open'] & Mock,
      openChangePassword: vi.fn(o.ui?.openChangePassword ?? (() => undefined)),
      openShortcuts: vi.fn(o.ui?.openShortcuts ?? (() => undefined)),
    },
  }
  const parsed = parseScreenPath(ctx.path)
  if (parsed) {
    const caps = new Map((o.provides ?? []).map(([cap, value]) => [cap.id, value]))
    ctx.focus = {
      path: ctx.path,
      screen: parsed.screen.name,
      params: parsed.params,
      record: o.record,
      use: <T>(cap: Capability<T>) => caps.get(cap.id) as T | undefined,
    }
  }
  if (o.t) ctx.t.mockImplementation(o.t)
  return ctx
}

/** Every spy that changes the world (all but `t`, which only reads), by name. */
export function effects(ctx: TestContext): Record<string, Mock> {
  return {
    navigate: ctx.navigate,
    'api.call': ctx.api.call,
    'api.upload': ctx.api.upload,
    'api.download': ctx.api.download,
    invalidate: ctx.invalidate,
    'settings.setLang': ctx.settings.setLang,
    'settings.setSize': ctx.settings.setSize,
    'settings.toggleSidebar': ctx.settings.toggleSidebar,
    'settings.toggleFullscreen': ctx.settings.toggleFullscreen,
    'session.logout': ctx.session.logout,
    'currentProject.set': ctx.currentProject.set,
    'panes.close': ctx.panes.close,
    'panes.show': ctx.panes.show,
    'panes.openToSide': ctx.panes.openToSide,
    'panes.closeOthers': ctx.panes.closeOthers,
    'panes.closeAll': ctx.panes.closeAll,
    'panes.split': ctx.panes.split,
    'panes.focusNext': ctx.panes.focusNext,
    'panes.focusPrevious': ctx.panes.focusPrevious,
    'panes.reopenClosed': ctx.panes.reopenClosed,
    'ui.toast': ctx.ui.toast,
    'ui.openPalette': ctx.ui.openPalette,
    'ui.open': ctx.ui.open,
    'ui.openChangePassword': ctx.ui.openChangePassword,
    'ui.openShortcuts': ctx.ui.openShortcuts,
  }
}

/** The names of the spies that were called, sorted: `[]` means nothing happened. */
export function calledEffects(ctx: TestContext): string[] {
  return Object.entries(effects(ctx))
    .filter(([, spy]) => spy.mock.calls.length > 0)
    .map(([name]) => name)
    .sort()
}

/** Asserts that exactly these effects happened (and no other), each once. */
export function expectOnly(ctx: TestContext, ...names: string[]): void {
  expect(calledEffects(ctx)).toEqual([...names].sort())
  for (const name of names) expect(effects(ctx)[name], name).toHaveBeenCalledTimes(1)
}
