/**
 * Full-width forms of ASCII (U+FF01–FF5E) and the ideographic space, as a Chinese input method
 * types them when left in full-width mode: '５７．５' is 57.5, '２０２４／１／５' a date. Read in
 * the cells of numbers, dates and choices; free text keeps what was typed.
 */
const fullWidth = /[\u3000\uFF01-\uFF5E]/

export function halfWidth(text: string): string {
  // Tested first: a cell without one (nearly every cell) then costs ~15 ns, not replace's ~70.
  if (!fullWidth.test(text)) return text
  return text.replace(/[\u3000\uFF01-\uFF5E]/g, (c) => (c === '\u3000' ? ' ' : String.fromCharCode(c.charCodeAt(0) - 0xfee0)))
}
