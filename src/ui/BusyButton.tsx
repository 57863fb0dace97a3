import { Button, Classes, Icon, Spinner, SpinnerSize, type ButtonProps } from '@blueprintjs/core'

/**
 * Blueprint's Button, busy without dropping the focus. Blueprint's `loading` disables the button
 * under the focus, which then falls to the page, and a keyboard user is lost. While `loading` this
 * one looks the same (spinner, greyed) but is only aria-disabled and ignores clicks (a form's Enter
 * too, which clicks its submit button), so the focus stays on it: a refusal leaves the user on the
 * button they pressed, and a dialog that closes gives the focus back from there (ui/Dialog.tsx).
 * With `focusableWhenDisabled`, `disabled` is the same but without the spinner: a button that its
 * own press leaves with nothing to do (a plan's Save once saved) keeps the focus too.
 */
export function BusyButton({
  loading = false,
  focusableWhenDisabled = false,
  disabled,
  icon,
  className,
  onClick,
  ...props
}: ButtonProps & { focusableWhenDisabled?: boolean }) {
  // One Button element either way, so React keeps the DOM node, and with it the focus.
  if (!loading && !(disabled && focusableWhenDisabled))
    return <Button {...props} disabled={disabled} icon={icon} className={className} onClick={onClick} />
  return (
    <Button
      {...props}
      icon={loading ? <BusyIcon icon={icon} /> : icon}
      className={[className, loading && Classes.LOADING, Classes.DISABLED].filter(Boolean).join(' ')}
      aria-disabled
      onClick={(e) => e.preventDefault()}
    />
  )
}

/** What Blueprint draws in a loading button: the spinner, then the icon, hidden but keeping its width. */
function BusyIcon({ icon }: { icon: ButtonProps['icon'] }) {
  return (
    <>
      <Spinner className={Classes.BUTTON_SPINNER} size={SpinnerSize.SMALL} />
      <Icon icon={icon} />
    </>
  )
}
