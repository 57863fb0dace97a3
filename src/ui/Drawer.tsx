import { Button, Classes, Drawer as BlueprintDrawer, H4, Icon, IconSize, type DrawerProps } from '@blueprintjs/core'
import { SmallCross } from '@blueprintjs/icons'
import { useT } from '../i18n/useT.ts'

/**
 * Blueprint's Drawer with its header drawn here, for the reason of src/ui/Dialog.tsx: Blueprint
 * names the close button "Close" in every language. Same classes and layout as Blueprint's.
 */
export function Drawer({ title, icon, isCloseButtonShown, children, ...props }: DrawerProps) {
  const t = useT()
  if (title == null) return <BlueprintDrawer {...props}>{children}</BlueprintDrawer>
  return (
    <BlueprintDrawer {...props}>
      <div className={Classes.DRAWER_HEADER}>
        <Icon icon={icon} size={IconSize.LARGE} />
        <H4>{title}</H4>
        {isCloseButtonShown !== false && (
          <Button
            aria-label={t('common.close')}
            className={Classes.DIALOG_CLOSE_BUTTON}
            icon={<SmallCross size={IconSize.LARGE} />}
            onClick={props.onClose}
            variant="minimal"
          />
        )}
      </div>
      {children}
    </BlueprintDrawer>
  )
}
