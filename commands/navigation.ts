import { screens } from '../contract/screens.ts'
import { defineCommand, type AnyCommand } from './define.ts'

/** Digit hotkeys for the screens people open most; the rest are a palette search away. */
const quickKeys: Record<string, string> = {
  dashboard: 'alt+0',
  multiList: 'alt+1',
  singleList: 'alt+2',
  patientList: 'alt+3',
  sampleList: 'alt+4',
  dictionaryList: 'alt+5',
  diseaseList: 'alt+6',
  crfManager: 'alt+7',
  subjectManager: 'alt+8',
  dataSearch: 'alt+9',
}

export const goToCommands: AnyCommand[] = screens
  .filter((s) => !s.hidden)
  .map((s) =>
    defineCommand({
      id: `go.${s.name}`,
      title: s.title,
      section: 'navigation',
      keywords: ['go', 'open', '打开', '前往', s.path],
      hotkey: quickKeys[s.name],
      when: (ctx) => ctx.canOpen(s.name),
      run: (ctx) => ctx.navigate(s.path),
    }),
  )

export const openPalette = defineCommand({
  id: 'palette.open',
  title: 'command.palette',
  section: 'navigation',
  keywords: ['command', 'palette', 'search', '命令', '搜索'],
  hotkey: 'ctrl+k, command+k, ctrl+shift+p, command+shift+p',
  run: (ctx) => ctx.ui.openPalette(),
})

export const navigationCommands: AnyCommand[] = [openPalette, ...goToCommands]
