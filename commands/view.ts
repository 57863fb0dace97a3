import { defineCommand, type AnyCommand } from './define.ts'
import type { Lang, Size } from './context.ts'

const languages: { lang: Lang; keywords: string[] }[] = [
  { lang: 'zh', keywords: ['language', 'chinese', '语言', '中文', 'zh'] },
  { lang: 'en', keywords: ['language', 'english', '语言', '英文', 'en'] },
]

export const languageCommands = languages.map(({ lang, keywords }) =>
  defineCommand({
    id: `view.lang.${lang}`,
    title: `command.lang.${lang}`,
    section: 'view',
    keywords,
    public: true,
    enabled: (ctx) => ctx.lang !== lang,
    run: async (ctx) => {
      await ctx.settings.setLang(lang)
      // Read after the switch, so the toast speaks the new language.
      ctx.ui.toast(ctx.t('message.switchLanguageSuccess'), 'success')
    },
  }),
)

export const sizes: readonly Size[] = ['default', 'medium', 'small', 'mini']

export const sizeCommands = sizes.map((size) =>
  defineCommand({
    id: `view.size.${size}`,
    title: `command.size.${size}`,
    section: 'view',
    keywords: ['size', '尺寸', '大小', 'density', size],
    public: true,
    enabled: (ctx) => ctx.size !== size,
    run: (ctx) => {
      ctx.settings.setSize(size)
      ctx.ui.toast(ctx.t('message.switchSizeSuccess'), 'success')
    },
  }),
)

export const toggleSidebar = defineCommand({
  id: 'view.toggleSidebar',
  title: 'command.toggleSidebar',
  section: 'view',
  keywords: ['sidebar', 'menu', 'hamburger', '侧边栏', '菜单'],
  hotkey: 'ctrl+b, command+b',
  run: (ctx) => ctx.settings.toggleSidebar(),
})

export const toggleFullscreen = defineCommand({
  id: 'view.toggleFullscreen',
  title: 'command.toggleFullscreen',
  section: 'view',
  keywords: ['fullscreen', 'full screen', '全屏'],
  public: true,
  hotkey: 'ctrl+shift+f, command+shift+f',
  run: (ctx) => {
    if (!ctx.settings.toggleFullscreen()) ctx.ui.toast(ctx.t('message.fullscreenUnsupported'), 'warning')
  },
})

export const viewCommands: AnyCommand[] = [...languageCommands, ...sizeCommands, toggleSidebar, toggleFullscreen]
