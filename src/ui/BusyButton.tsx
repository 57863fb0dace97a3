import { useEffect, useRef } from 'react'
import { Button, type ButtonProps } from '@blueprintjs/core'

/**
 * Blueprint's Button, whose `loading` disables it under the focus, which then falls to the page:
 * once it is enabled again with the focus still on the page, it takes the focus back, so a keyboard
 * user goes on from the button they pressed (a download made, a refused save).
 */
export function BusyButton(props: ButtonProps) {
  const button = useRef<HTMLButtonElement>(null)
  const wasBusy = useRef(false)
  const busy = props.loading === true
  useEffect(() => {
    if (wasBusy.current && !busy && document.activeElement === document.body) button.current?.focus()
    wasBusy.current = busy
  }, [busy])
  return <Button {...props} ref={button} />
}
