import type { z } from 'zod'
import type { Permission } from '../contract/permissions.ts'
import type { CommandContext } from './context.ts'

export type Section =
  'navigation' | 'project' | 'subject' | 'dictionary' | 'templates' | 'admin' | 'audit' | 'view' | 'workspace' | 'account' | 'help'

export interface Command<A = undefined> {
  /** Stable: tests, data-testid, logs. */
  id: string
  /** i18n key; the palette matches its zh and its en text whatever the language. */
  title: string
  section: Section
  keywords?: readonly string[]
  /** hotkeys-js syntax; the only place this key is written. */
  hotkey?: string
  /** Parsed before every run. */
  args?: z.ZodType<A>
  /** Runs without a session (e.g. the language on the sign-in page); every other command needs one. */
  public?: boolean
  /**
   * What the user's roles must grant for it: without it the command is hidden and inert, so no
   * palette, menu, button or hotkey offers it (the server refuses the call regardless).
   */
  permission?: Permission
  /** Hidden and inert where it does not apply. */
  when?: (ctx: CommandContext) => boolean
  /**
   * Shown disabled (not hidden) in menus when false: e.g. the current language. `args` are what a
   * button or menu entry passes, parsed; the palette and hotkeys pass none.
   */
  enabled?: (ctx: CommandContext, args: A | undefined) => boolean
  run: (ctx: CommandContext, args: A) => void | Promise<void>
}

// The registry stores commands of any argument type side by side.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyCommand = Command<any>

export function defineCommand<A = undefined>(command: Command<A>): Command<A> {
  return command
}

/**
 * What a command throws when it will not act for a reason the user can fix (no project chosen,
 * a reason left empty, a file refused): `execute` shows its message and logs no failure.
 */
export class Refusal extends Error {
  override name = 'Refusal'
}
