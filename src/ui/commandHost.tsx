import { createContext, useContext } from 'react'
import type { AnyCommand } from '../../commands/define.ts'
import type { CommandContext } from '../../commands/context.ts'
import type { ExecuteResult, Source } from '../../commands/registry.ts'

/** What the app gives shared components so they can show and run commands without importing it. */
export interface CommandHost {
  context(): CommandContext
  run(id: string, source: Source, args?: unknown): Promise<ExecuteResult>
  command(id: string): AnyCommand
  hotkeyLabel(command: AnyCommand): string | null
}

export const CommandHostContext = createContext<CommandHost | null>(null)

export function useCommandHost(): CommandHost {
  const host = useContext(CommandHostContext)
  if (!host) throw new Error('CommandHostContext is missing')
  return host
}
