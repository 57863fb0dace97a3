/** exceljs' internal helpers module (exceljs 4.4, pinned): only what server/services/exceljsDecodeOnce.ts replaces. */
declare module 'exceljs/lib/utils/utils.js' {
  const utils: { xmlDecode(text: string): string }
  export default utils
}
