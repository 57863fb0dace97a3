import hotkeys from 'hotkeys-js'
import { commands } from '../../commands/registry.ts'
import type { Source, ExecuteResult } from '../../commands/registry.ts'
import { finishPaletteClose } from './paletteClose.ts'

const isEditable = (el: EventTarget | null) =>
  el instanceof HTMLElement && (el.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(el.tagName))

/**
 * Binds every command's hotkey, as written on the command. In a text field only chords with
 * Ctrl, Alt or ⌘ fire, so typing '?' into a form never opens the shortcut sheet.
 */
export function bindHotkeys(run: (id: string, source: Source) => Promise<ExecuteResult>, applies: (id: string) => boolean): () => void {
  hotkeys.filter = (event) => !isEditable(event.target) || event.ctrlKey || event.metaKey || event.altKey
  const bound: string[] = []
  for (const command of commands) {
    if (!command.hotkey) continue
    hotkeys(command.hotkey, (event) => {
      finishPaletteClose()
      // Where the command does not apply the key keeps its browser meaning (Alt+↓ opens a select).
      if (!applies(command.id)) return
      event.preventDefault()
      void run(command.id, 'hotkey')
    })
    bound.push(command.hotkey)
  }
  return () => bound.forEach((k) => hotkeys.unbind(k))
}
