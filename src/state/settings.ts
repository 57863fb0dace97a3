import Cookies from 'js-cookie'
import { proxy, subscribe } from 'valtio'
import type { Lang, Size } from '../../commands/context.ts'

export type Device = 'desktop' | 'mobile'

/** SPEC §3 app settings: sidebar (1/0), device, language (cookie), size (persisted). */
export interface Settings {
  sidebarOpened: boolean
  /** Closing without animation, as on a route change in mobile mode. */
  withoutAnimation: boolean
  device: Device
  lang: Lang
  size: Size
}

const sizes: readonly Size[] = ['default', 'medium', 'small', 'mini']

function readLang(): Lang {
  const v = Cookies.get('language')
  return v === 'en' || v === 'zh' ? v : 'zh'
}

function readSize(): Size {
  const v = Cookies.get('size')
  return sizes.includes(v as Size) ? (v as Size) : 'medium'
}

export const settings = proxy<Settings>({
  sidebarOpened: Cookies.get('sidebarStatus') !== '0',
  withoutAnimation: false,
  device: 'desktop',
  lang: readLang(),
  size: readSize(),
})

subscribe(settings, () => {
  Cookies.set('sidebarStatus', settings.sidebarOpened ? '1' : '0', { expires: 365 })
  Cookies.set('language', settings.lang, { expires: 365 })
  Cookies.set('size', settings.size, { expires: 365 })
})

export function toggleSidebar(): void {
  settings.sidebarOpened = !settings.sidebarOpened
  settings.withoutAnimation = false
}

export function closeSidebar(withoutAnimation: boolean): void {
  settings.sidebarOpened = false
  settings.withoutAnimation = withoutAnimation
}

export function setDevice(device: Device): void {
  settings.device = device
}

export function setSize(size: Size): void {
  settings.size = size
}

export function setLangSetting(lang: Lang): void {
  settings.lang = lang
}

/** SPEC §2: mobile when the window's width minus 3 is under 1024 px. */
export const isMobileWidth = (width: number) => width - 3 < 1024
