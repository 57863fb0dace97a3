// @blueprintjs/icons without `allPaths`: its entry re-exports every icon path statically, and
// Rolldown keeps both path chunks (~213 kB gzip) in the first load. Everything else is kept;
// icons named by string still load lazily (DESIGN.md §8).
export { Icons } from '@blueprintjs/icons/lib/esm/iconLoader.js'
export { SVGIconContainer } from '@blueprintjs/icons/lib/esm/svgIconContainer.js'
export { getIconContentString, IconCodepoints } from '@blueprintjs/icons/lib/esm/iconCodepoints.js'
export {
  iconNameToIconNextName,
  legacyIconNameToIconNextName,
  LegacyToIconNextNameMap,
} from '@blueprintjs/icons/lib/esm/iconNameConversion.js'
export { IconNames } from '@blueprintjs/icons/lib/esm/iconNames.js'
export { IconSize } from '@blueprintjs/icons/lib/esm/iconTypes.js'
export * from '@blueprintjs/icons/lib/esm/generated/components/index.js'
