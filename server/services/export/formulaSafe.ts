/**
 * Formula injection (CSV injection, OWASP): a spreadsheet runs a cell that starts with = + - @
 * (or a tab or carriage return before one) as a formula, so text from the database could run in
 * the reader's Excel. Every exported text cell goes through formulaSafe, which puts a ' in front
 * as OWASP advises; a plain number ("-5", "+3.2e4") is data, not a formula, and stays as it is.
 * Imports of our own files take that ' off again with fromFormulaSafe, so a file round-trips.
 */

const trigger = /^[=+\-@\t\r]/
const plainNumber = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/
/** The first characters that can make a mark needed: a trigger or a ' of the text's own. */
const markable = /^['=+\-@\t\r]/

/** Runnable text, or text whose own leading ' marks would otherwise be taken for ours on import. */
function needsMark(text: string): boolean {
  // Most cells start with none of them: one test, no copy of the text.
  if (!markable.test(text)) return false
  const rest = text.replace(/^'+/, '')
  return trigger.test(rest) && !plainNumber.test(rest)
}

export function formulaSafe(text: string): string {
  return needsMark(text) ? `'${text}` : text
}

/** The text formulaSafe was given: only a ' it added is removed. */
export function fromFormulaSafe(cell: string): string {
  return cell.startsWith("'") && needsMark(cell.slice(1)) ? cell.slice(1) : cell
}
