import { Classes, Drawer as BlueprintDrawer, H4, Icon, IconSize, type DrawerProps } from '@blueprintjs/core'
import { CloseButton, useFocusReturn } from './Dialog.tsx'

/**
 * Blueprint's Drawer with its header drawn here, for the reason of src/ui/Dialog.tsx: Blueprint
 * names the close button "Close" in every language. Same classes and layout as Blueprint's.
 */
export function Drawer({ title, icon, isCloseButtonShown, children, ...props }: DrawerProps) {
  useFocusReturn()
  if (title == null) return <BlueprintDrawer {...props}>{children}</BlueprintDrawer>
  return (
    <BlueprintDrawer {...props}>
      <div className={Classes.DRAWER_HEADER}>
        <Icon icon={icon} size={IconSize.LARGE} />
        <H4>{title}</H4>
        {isCloseButtonShown !== false && <CloseButton size={IconSize.LARGE} onClose={props.onClose} />}
      </div>
      {children}
    </BlueprintDrawer>
  )
}
