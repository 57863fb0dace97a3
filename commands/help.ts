import { defineCommand, type AnyCommand } from './define.ts'

export const showShortcuts = defineCommand({
  id: 'help.shortcuts',
  title: 'command.shortcuts',
  section: 'help',
  keywords: ['keyboard', 'shortcuts', 'hotkeys', 'help', '快捷键', '帮助'],
  hotkey: 'shift+/',
  public: true,
  run: (ctx) => ctx.ui.openShortcuts(),
})

export const helpCommands: AnyCommand[] = [showShortcuts]
