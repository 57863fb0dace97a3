import { z } from 'zod'

/**
 * A number a person types to name a subject or a sample, as it is kept and compared: NFKC, so
 * the full-width 'ＡＵＤ－００１' a Chinese input method types is the 'AUD-001' already enrolled,
 * then trimmed.
 */
export const identifierText = (text: string): string => (/[^\x20-\x7e]/.test(text) ? text.normalize('NFKC') : text).trim()

/**
 * A control or invisible character (line break, zero-width space, bidi mark): a number holding
 * one looks like another number and is never found by typing it, so it is refused, not kept.
 */
export const hasInvisible = (text: string): boolean => /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/u.test(text)

/** The message key of a number refused by hasInvisible (server/i18n/messages.ts). */
export const invisibleKey = 'field.invisible'

/** A typed number up to `max` characters, as identifierText keeps it; blank stays ''. */
export const identifierValue = (max: number) =>
  z
    .string()
    .transform(identifierText)
    .pipe(
      z
        .string()
        .max(max)
        .refine((t) => !hasInvisible(t), { params: { key: invisibleKey } }),
    )
