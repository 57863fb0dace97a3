import { Refusal, type AnyCommand } from './define.ts'
import type { CommandContext } from './context.ts'
import { accountCommands } from './account.ts'
import { templateCommands } from './templates.ts'
import { navigationCommands } from './navigation.ts'
import { viewCommands } from './view.ts'
import { workspaceCommands } from './workspace.ts'
import { helpCommands } from './help.ts'
import { dictionaryCommands } from './dictionary.ts'
import { auditCommands } from './audit.ts'
import { userCommands } from './users.ts'
import { organizationCommands } from './organization.ts'
import { roleCommands } from './roles.ts'
import { catalogCommands } from './catalog.ts'
import { projectSetupCommands } from './projectSetup.ts'
import { randomizationCommands } from './randomization.ts'
import { projectMemberCommands } from './projectMembers.ts'
import { projectCommands } from './projects.ts'
import { subjectCommands } from './subjects.ts'
import { dataEntryCommands } from './dataEntry.ts'
import { followUpCommands } from './followUp.ts'
import { sampleCommands } from './samples.ts'
import { attachmentCommands } from './attachments.ts'
import { subjectListCommands } from './subjectList.ts'
import { dataLoadCommands } from './dataLoader.ts'

export type Source = 'palette' | 'hotkey' | 'menu' | 'button' | 'test'

export const commands: readonly AnyCommand[] = [
  ...navigationCommands,
  ...viewCommands,
  ...workspaceCommands,
  ...accountCommands,
  ...templateCommands,
  ...helpCommands,
  ...dictionaryCommands,
  ...auditCommands,
  ...userCommands,
  ...organizationCommands,
  ...roleCommands,
  ...catalogCommands,
  ...projectSetupCommands,
  ...randomizationCommands,
  ...projectMemberCommands,
  ...projectCommands,
  ...subjectCommands,
  ...dataEntryCommands,
  ...followUpCommands,
  ...sampleCommands,
  ...attachmentCommands,
  ...subjectListCommands,
  ...dataLoadCommands,
]

const byId = new Map(commands.map((c) => [c.id, c]))
if (byId.size !== commands.length) throw new Error('two commands share an id')

export function getCommand(id: string): AnyCommand {
  const c = byId.get(id)
  if (!c) throw new Error(`unknown command ${id}`)
  return c
}

/** A command needs a session unless it says it is public, and the permission it names; then its own `when` decides. */
export function isAvailable(command: AnyCommand, ctx: CommandContext): boolean {
  if (!command.public && !ctx.signedIn) return false
  if (command.permission && !ctx.can(command.permission)) return false
  return command.when ? command.when(ctx) : true
}

/** With the arguments a button or menu entry passes, as `execute` will be given them. */
export function isEnabled(command: AnyCommand, ctx: CommandContext, rawArgs?: unknown): boolean {
  if (!isAvailable(command, ctx)) return false
  if (!command.enabled) return true
  const parsed = rawArgs === undefined ? undefined : command.args?.safeParse(rawArgs)
  return command.enabled(ctx, parsed?.success ? parsed.data : undefined)
}

/** Commands that need arguments are run by buttons and menus with them, not from the palette. */
export function needsArgs(command: AnyCommand): boolean {
  return command.args ? !command.args.safeParse(undefined).success : false
}

/** Errors the context has already put on screen carry `shown: true`. */
const alreadyShown = (error: unknown) =>
  typeof error === 'object' && error !== null && 'shown' in error && (error as { shown: unknown }).shown === true

export type ExecuteResult = { ok: true } | { ok: false; reason: 'unavailable' | 'badArgs' | 'failed'; error?: unknown }

/**
 * The one way a command runs, whatever called it. It never throws: a refusal or a failure
 * ends in a toast and a result the caller may read.
 */
export async function execute(command: AnyCommand, ctx: CommandContext, source: Source, rawArgs?: unknown): Promise<ExecuteResult> {
  if (!isEnabled(command, ctx, rawArgs)) return { ok: false, reason: 'unavailable' }
  let args: unknown = rawArgs
  if (command.args) {
    const parsed = command.args.safeParse(rawArgs)
    if (!parsed.success) {
      ctx.ui.toast(ctx.t('command.badArgs', { command: ctx.t(command.title) }), 'danger')
      return { ok: false, reason: 'badArgs', error: parsed.error }
    }
    args = parsed.data
  }
  try {
    await command.run(ctx, args)
    return { ok: true }
  } catch (error) {
    // An API refusal was already shown and logged by the API client (SPEC §8); say it once.
    if (!alreadyShown(error)) {
      // A refusal is the command answering the user, not a failure to look into.
      if (!(error instanceof Refusal)) console.error(`command ${command.id} from ${source} failed`, error)
      const detail = error instanceof Error && error.message ? error.message : ctx.t('message.unknownError')
      ctx.ui.toast(detail, 'danger')
    }
    return { ok: false, reason: 'failed', error }
  }
}

/** How a key name reads on a keycap where capitalising its hotkeys-js name is not enough. */
const keyCaps: Readonly<Record<string, string>> = {
  up: '↑',
  down: '↓',
  left: '←',
  right: '→',
  pageup: 'PageUp',
  pagedown: 'PageDown',
  escape: 'Esc',
}

/**
 * hotkeys-js binding text for display: the variant of this platform, e.g. `Ctrl+Shift+P`,
 * `Alt+Shift+PageDown` or `⌘K`. The one formatter of keys: palette, tooltips, buttons and the
 * shortcut sheet all read keys through it.
 */
export function hotkeyLabel(hotkey: string, mac: boolean): string {
  const variants = hotkey.split(',').map((v) => v.trim())
  const chosen = variants.find((v) => (mac ? /command|⌘/.test(v) : !/command|⌘/.test(v))) ?? variants[0] ?? ''
  const names: Record<string, string> = mac
    ? { command: '⌘', ctrl: '⌃', shift: '⇧', alt: '⌥', option: '⌥' }
    : { ctrl: 'Ctrl', shift: 'Shift', alt: 'Alt', command: 'Cmd' }
  return chosen
    .split('+')
    .map((k) => names[k] ?? keyCaps[k] ?? (k.length === 1 ? k.toUpperCase() : k[0]!.toUpperCase() + k.slice(1)))
    .join(mac ? '' : '+')
}
