import { useEffect, useId, useState } from 'react'
import { Button, Classes, Dialog as BlueprintDialog, H2, Icon, IconSize, type DialogProps } from '@blueprintjs/core'
import { SmallCross } from '@blueprintjs/icons'
import { useT } from '../i18n/useT.ts'

/**
 * Blueprint's Dialog with its header drawn here: Blueprint names the header's close button
 * "Close" in every language, so the Chinese interface read "Close" to a screen reader. The
 * header keeps Blueprint's classes and layout; every dialog of the app is this one.
 */
/** The header's close button, named in the user's language (Dialog's and Drawer's). */
export function CloseButton({ size, onClose }: { size: number; onClose: DialogProps['onClose'] }) {
  const t = useT()
  return (
    <Button
      aria-label={t('common.close')}
      className={Classes.DIALOG_CLOSE_BUTTON}
      icon={<SmallCross size={size} />}
      onClick={onClose}
      variant="minimal"
    />
  )
}

export function Dialog({
  title,
  icon,
  isCloseButtonShown,
  titleTagName: Title = H2,
  children,
  'data-testid': testId,
  ...props
}: DialogProps & { 'data-testid'?: string }) {
  const titleId = useId()
  useFocusReturn()
  // Blueprint hands unknown props to its overlay, which draws none of them: the dialog element gets the test id here.
  const containerRef = (el: HTMLDivElement | null) => {
    if (testId) el?.firstElementChild?.setAttribute('data-testid', testId)
  }
  if (title == null)
    return (
      <BlueprintDialog {...props} containerRef={containerRef}>
        {children}
      </BlueprintDialog>
    )
  return (
    <BlueprintDialog {...props} containerRef={containerRef} aria-labelledby={props['aria-labelledby'] ?? titleId}>
      <div className={Classes.DIALOG_HEADER}>
        <Icon icon={icon} size={IconSize.STANDARD} aria-hidden tabIndex={-1} />
        <Title id={titleId}>{title}</Title>
        {isCloseButtonShown !== false && <CloseButton size={IconSize.STANDARD} onClose={props.onClose} />}
      </div>
      {children}
    </BlueprintDialog>
  )
}

const shown = (e: Element | null | undefined): e is HTMLElement =>
  e instanceof HTMLElement && e.isConnected && e.getClientRects().length > 0

const controls = 'button:not(:disabled), input:not(:disabled), select:not(:disabled), textarea:not(:disabled), [tabindex="0"]'
/** The first control on screen in the pane that has the focus of the workspace. */
function firstControlOfFocusedPane(): HTMLElement | undefined {
  // Read from the page (app/Workspace marks the focused one of several panes), not the workspace
  // state: this file is in the first load, and that state would bring its parser along.
  const slots = document.querySelectorAll('.pane-slot')
  const pane = document.querySelector('.pane-slot.pane-focused') ?? (slots.length === 1 ? slots[0] : null)
  return [...(pane?.querySelectorAll(controls) ?? [])].find(shown)
}

/** What the open dialogs give the focus back to, the latest last. */
const returnTargets: Element[] = []

/**
 * The app's dialogs and drawers close by unmounting, and Blueprint gives the focus back only to an
 * overlay closed through isOpen: it fell to the page. It goes back to what had it before the dialog opened, as
 * the palette and the confirmation do. A dialog opened from another (a new user's one-time
 * password) falls back to the other's target, the button it left closing. One whose opener left
 * the screen (New sample from a subject's detail shows the sample list first) gives it to the
 * first control of the focused pane, where the user now is.
 */
export function useFocusReturn() {
  // Read at the first render, before the dialog takes the focus.
  const [to] = useState(() => {
    const active = document.activeElement
    const fromDialog = active?.closest(`.${Classes.DIALOG}`) ? returnTargets.at(-1) : undefined
    return { active, fallback: fromDialog ?? null }
  })
  useEffect(() => {
    const mine = to.active ?? to.fallback
    if (mine) returnTargets.push(mine)
    return () => {
      if (mine) returnTargets.splice(returnTargets.lastIndexOf(mine), 1)
      if (document.activeElement !== document.body) return
      const target = [to.active, to.fallback].find(shown) ?? firstControlOfFocusedPane()
      if (target instanceof HTMLElement) target.focus()
    }
  }, [to])
}
