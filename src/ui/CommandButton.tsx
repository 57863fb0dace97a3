import { MenuItem, type ButtonProps, type MenuItemProps } from '@blueprintjs/core'
import { useT } from '../i18n/useT.ts'
import { isAvailable, isEnabled } from '../../commands/registry.ts'
import { useCommandHost } from './commandHost.tsx'
import { BusyButton } from './BusyButton.tsx'

type Common = { id: string; args?: unknown; label?: string }

/**
 * A button that runs a command; its tooltip shows the command's hotkey; busy (`loading`), it keeps
 * the focus. `refusal` says why the command will not act on what `args` name (a row the server
 * would refuse): the button is disabled and its tooltip says why instead.
 */
export function CommandButton({
  id,
  args,
  label,
  iconOnly,
  refusal,
  ...rest
}: Common & { iconOnly?: boolean; focusableWhenDisabled?: boolean; refusal?: string | null } & Omit<ButtonProps, 'onClick' | 'text'>) {
  const host = useCommandHost()
  const t = useT()
  const command = host.command(id)
  const ctx = host.context()
  if (!isAvailable(command, ctx)) return null
  const key = host.hotkeyLabel(command)
  const title = t(command.title)
  return (
    <BusyButton
      {...rest}
      data-testid={`cmd-${id}`}
      title={refusal ?? (key ? `${title} (${key})` : title)}
      // A visible label other than the title starts the accessible name (WCAG 2.5.3).
      aria-label={iconOnly ? title : label !== undefined && label !== title ? `${label}, ${title}` : undefined}
      text={iconOnly ? undefined : (label ?? title)}
      disabled={refusal != null || !isEnabled(command, ctx, args)}
      onClick={() => void host.run(id, 'button', args)}
    />
  )
}

/** A menu entry that runs a command and shows its hotkey on the right. */
export function CommandMenuItem({ id, args, label, ...rest }: Common & Omit<MenuItemProps, 'onClick' | 'text'>) {
  const host = useCommandHost()
  const t = useT()
  const command = host.command(id)
  const ctx = host.context()
  if (!isAvailable(command, ctx)) return null
  return (
    <MenuItem
      {...rest}
      data-testid={`cmd-${id}`}
      text={label ?? t(command.title)}
      label={host.hotkeyLabel(command) ?? undefined}
      disabled={!isEnabled(command, ctx, args)}
      onClick={() => void host.run(id, 'menu', args)}
    />
  )
}
