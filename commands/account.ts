import { defineCommand, type AnyCommand } from './define.ts'

export const changePassword = defineCommand({
  id: 'account.changePassword',
  title: 'command.changePassword',
  section: 'account',
  keywords: ['password', 'change', '密码', '修改密码'],
  run: (ctx) => ctx.ui.openChangePassword(),
})

export const logout = defineCommand({
  id: 'account.logout',
  title: 'command.logout',
  section: 'account',
  keywords: ['log out', 'logout', 'sign out', '退出', '登出', '注销'],
  hotkey: 'alt+shift+q',
  run: (ctx) => ctx.session.logout(),
})

export const accountCommands: AnyCommand[] = [changePassword, logout]
