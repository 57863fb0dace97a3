/**
 * Research subjects (issue 10): enrolment into a queue of an active project. The checklist holds
 * one answer per non-empty line of the queue's inclusion (entryCondition) and exclusion
 * (excludeCondition) conditions; `factors` answer the randomization plan's stratification factors.
 */
import { z } from 'zod'
import { endpoint } from './endpoint.ts'
import { idValue } from './ids.ts'
import { identifierValue } from './identifierText.ts'

export const subjectLimits = { subjectNo: 50, checklist: 100, factors: 20 } as const

export const subjectPaths = {
  subjects: (projectId: number) => `api/projects/${projectId}/subjects`,
}

/** The lines of a condition text that the checklist answers, in order. */
export const conditionLines = (text: string): string[] =>
  text
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l !== '')

export const subjectStatuses = ['enrolled'] as const

export const enrolInput = z.object({
  queueId: idValue,
  centerId: idValue,
  /** Omitted or blank: generated as the center code, '-', and a 4-digit sequence (BJ01-0001). */
  subjectNo: identifierValue(subjectLimits.subjectNo).optional(),
  checklist: z.object({
    inclusion: z.array(z.boolean()).max(subjectLimits.checklist),
    exclusion: z.array(z.boolean()).max(subjectLimits.checklist),
  }),
  factors: z
    .array(z.object({ indicatorId: idValue, code: z.string().max(100) }))
    .max(subjectLimits.factors)
    .optional(),
})
export type EnrolInput = z.infer<typeof enrolInput>

export const enrolledSubject = z.object({
  id: z.number().int(),
  subjectNo: z.string(),
  queueId: z.number().int(),
  centerId: z.number().int(),
  status: z.enum(subjectStatuses),
  enrolledAt: z.string(),
  /** Null without randomization, and for callers kept blind. */
  group: z.object({ code: z.string(), name: z.string() }).nullable(),
})
export type EnrolledSubject = z.infer<typeof enrolledSubject>

export const enrolSubject = endpoint({
  method: 'POST',
  input: z.object({ id: idValue, subject: enrolInput }),
  output: enrolledSubject,
  request: ({ id, subject }) => ({ path: subjectPaths.subjects(id), body: subject }),
})
