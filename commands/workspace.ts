import { z } from 'zod'
import { defineCommand, type AnyCommand } from './define.ts'
import type { CommandContext } from './context.ts'

const hasTabs = (ctx: CommandContext) => ctx.panes.tabs.length > 0
const closable = (ctx: CommandContext) => ctx.panes.tabs.some((t) => !t.affix)

export const closeTab = defineCommand({
  id: 'workspace.closeTab',
  title: 'command.closeTab',
  section: 'workspace',
  keywords: ['close', 'tab', '关闭', '标签'],
  hotkey: 'alt+w',
  args: z.object({ path: z.string().startsWith('/') }).optional(),
  when: hasTabs,
  run: (ctx, args) => ctx.panes.close(args?.path),
})

export const closeOtherTabs = defineCommand({
  id: 'workspace.closeOthers',
  title: 'command.closeOthers',
  section: 'workspace',
  keywords: ['close', 'other', 'tabs', '关闭其他'],
  hotkey: 'alt+shift+w',
  when: (ctx) => hasTabs(ctx) && closable(ctx),
  run: (ctx) => ctx.panes.closeOthers(),
})

export const closeAllTabs = defineCommand({
  id: 'workspace.closeAll',
  title: 'command.closeAll',
  section: 'workspace',
  keywords: ['close', 'all', 'tabs', '关闭所有', '全部关闭'],
  hotkey: 'ctrl+alt+w',
  when: (ctx) => hasTabs(ctx) && closable(ctx),
  run: (ctx) => ctx.panes.closeAll(),
})

const pathArg = z.object({ path: z.string().startsWith('/') }).optional()

export const splitRight = defineCommand({
  id: 'workspace.splitRight',
  title: 'command.splitRight',
  section: 'workspace',
  keywords: ['split', 'right', 'side by side', 'compare', '分屏', '右侧', '对比'],
  hotkey: 'ctrl+\\, command+\\',
  args: pathArg,
  when: (ctx) => ctx.panes.tabs.length > 1,
  run: (ctx, args) => ctx.panes.split('row', args?.path),
})

export const splitDown = defineCommand({
  id: 'workspace.splitDown',
  title: 'command.splitDown',
  section: 'workspace',
  keywords: ['split', 'down', 'below', 'compare', '分屏', '下方', '对比'],
  hotkey: 'ctrl+alt+\\, command+alt+\\',
  args: pathArg,
  when: (ctx) => ctx.panes.tabs.length > 1,
  run: (ctx, args) => ctx.panes.split('column', args?.path),
})

export const focusNextPane = defineCommand({
  id: 'workspace.focusNext',
  title: 'command.focusNext',
  section: 'workspace',
  keywords: ['focus', 'next', 'pane', '焦点', '下一个'],
  hotkey: 'alt+]',
  when: (ctx) => ctx.panes.visibleCount > 1,
  run: (ctx) => ctx.panes.focusNext(),
})

export const focusPreviousPane = defineCommand({
  id: 'workspace.focusPrevious',
  title: 'command.focusPrevious',
  section: 'workspace',
  keywords: ['focus', 'previous', 'pane', '焦点', '上一个'],
  hotkey: 'alt+[',
  when: (ctx) => ctx.panes.visibleCount > 1,
  run: (ctx) => ctx.panes.focusPrevious(),
})

export const reopenClosedTab = defineCommand({
  id: 'workspace.reopenClosed',
  title: 'command.reopenClosed',
  section: 'workspace',
  keywords: ['reopen', 'closed', 'tab', 'undo', '重新打开', '恢复'],
  hotkey: 'alt+shift+t',
  when: (ctx) => ctx.panes.canReopen,
  run: (ctx) => ctx.panes.reopenClosed(),
})

const requiredPath = z.object({ path: z.string().startsWith('/') })

/** What a tab click runs. Needs a path, so the palette does not list it. */
export const showTab = defineCommand({
  id: 'workspace.showTab',
  title: 'command.showTab',
  section: 'workspace',
  args: requiredPath,
  run: (ctx, args) => ctx.panes.show(args.path),
})

/** Ctrl-click in the sidebar, or "open to the side" on a tab: compare two screens. */
export const openToSide = defineCommand({
  id: 'workspace.openToSide',
  title: 'command.openToSide',
  section: 'workspace',
  args: requiredPath,
  run: (ctx, args) => ctx.panes.openToSide(args.path),
})

export const workspaceCommands: AnyCommand[] = [
  showTab,
  openToSide,
  closeTab,
  closeOtherTabs,
  closeAllTabs,
  splitRight,
  splitDown,
  focusNextPane,
  focusPreviousPane,
  reopenClosedTab,
]
