import { Button, Menu, MenuDivider, Navbar as BpNavbar, PopoverNext as Popover } from '@blueprintjs/core'
import { useSnapshot } from 'valtio'
import { languageCommands, sizeCommands } from '../../commands/view.ts'
import { session } from '../state/session.ts'
import { settings } from '../state/settings.ts'
import { useT } from '../i18n/useT.ts'
import { CommandButton, CommandMenuItem } from '../ui/CommandButton.tsx'
import { Breadcrumb } from './Breadcrumb.tsx'

/** Hamburger, breadcrumb, palette, fullscreen, size, language and the user menu: all commands. */
export function Navbar({ path }: { path: string }) {
  const t = useT()
  const { name, userName } = useSnapshot(session)
  const { lang, size } = useSnapshot(settings)
  return (
    <BpNavbar className="navbar" data-testid="navbar">
      <BpNavbar.Group align="left">
        <CommandButton id="view.toggleSidebar" icon="menu" variant="minimal" iconOnly />
        <Breadcrumb path={path} />
      </BpNavbar.Group>
      <BpNavbar.Group align="right">
        <CommandButton id="palette.open" icon="search" variant="minimal" iconOnly />
        <CommandButton id="view.toggleFullscreen" icon="fullscreen" variant="minimal" iconOnly />
        <Popover
          placement="bottom-end"
          content={
            <Menu data-testid="size-menu">
              {sizeCommands.map((c) => (
                <CommandMenuItem key={c.id} id={c.id} />
              ))}
            </Menu>
          }
        >
          <Button
            variant="minimal"
            icon="font"
            title={t('navbar.size')}
            // The accessible name starts with the visible text (WCAG 2.5.3), then says what it is.
            aria-label={`${t(`size.${size}`)}, ${t('navbar.size')}`}
            data-testid="size-select"
            text={t(`size.${size}`)}
          />
        </Popover>
        <Popover
          placement="bottom-end"
          content={
            <Menu data-testid="lang-menu">
              {languageCommands.map((c) => (
                <CommandMenuItem key={c.id} id={c.id} />
              ))}
            </Menu>
          }
        >
          <Button
            variant="minimal"
            icon="translate"
            title={t('navbar.language')}
            aria-label={`${lang === 'zh' ? '中文' : 'English'}, ${t('navbar.language')}`}
            data-testid="lang-select"
            text={lang === 'zh' ? '中文' : 'English'}
          />
        </Popover>
        <Popover
          placement="bottom-end"
          content={
            <Menu data-testid="user-menu">
              <CommandMenuItem id="go.dashboard" icon="dashboard" />
              <CommandMenuItem id="help.shortcuts" icon="key-command" />
              <MenuDivider />
              <CommandMenuItem id="account.changePassword" icon="key" />
              <CommandMenuItem id="account.logout" icon="log-out" intent="danger" />
            </Menu>
          }
        >
          <Button variant="minimal" icon="user" endIcon="caret-down" data-testid="user-dropdown" text={name || userName} />
        </Popover>
      </BpNavbar.Group>
    </BpNavbar>
  )
}
