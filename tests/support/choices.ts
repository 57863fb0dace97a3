import type { Choice } from '../../contract/dictionary.ts'

/** Choices coded '1', '2', … with each text as both labels: the shape old plain-text options migrate to. */
export const choices = (...labels: string[]): Choice[] => labels.map((l, i) => ({ code: String(i + 1), labelZh: l, labelEn: l }))
