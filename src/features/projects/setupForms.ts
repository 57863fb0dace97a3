/**
 * Client-side checks of the wizard and the edit tabs, with the contract's own schemas and
 * `baseRules`, so the user reads the same rule the server applies, in their language, before
 * anything is sent. Messages are keys with parameters; a parameter that is a label key is
 * translated too (`messageText`).
 */
import type { z } from 'zod'
import {
  baseRules,
  centerInput,
  projectBaseInput,
  queueInput,
  type CenterInput,
  type ProjectBaseInput,
  type ProjectDetail,
  type QueueInput,
} from '../../../contract/projects.ts'
import type { BaseForm, QueueDomain } from '../../state/projectDraft.ts'

export interface Message {
  key: string
  params: (string | number)[]
}

export type BaseField = keyof ProjectBaseInput
export type QueueField = keyof QueueInput
export type CenterField = keyof CenterInput

type Kind = 'text' | 'choice' | 'number'

const baseKinds: Record<BaseField, Kind> = {
  type: 'choice',
  name: 'text',
  number: 'text',
  testStage: 'choice',
  groupNumber: 'text',
  manageBiomaterial: 'choice',
  groupType: 'choice',
  diseaseId: 'choice',
  blinded: 'choice',
  randomMethod: 'choice',
  plannedQuantity: 'number',
  plannedGroups: 'number',
  therapyTime: 'text',
  followUpTime: 'text',
}

export const baseFields = Object.keys(baseKinds) as BaseField[]
export const baseLabel = (field: BaseField) => `projectSetup.field.${field}`
export const queueLabel = (field: QueueField) => `projectSetup.queue.${field}`
export const centerLabel = (field: CenterField) => `projectSetup.center.${field}`

/** What a zod issue means to the person filling the field. */
function issueMessage(issue: z.core.$ZodIssue, label: string, kind: Kind, raw: unknown): Message {
  const empty = raw === '' || raw === undefined || raw === null
  switch (issue.code) {
    case 'too_big':
      return kind === 'number'
        ? { key: 'projectSetup.msg.max', params: [label, Number(issue.maximum)] }
        : { key: 'projectSetup.msg.tooLong', params: [label, Number(issue.maximum)] }
    case 'too_small':
      if (kind === 'number') return { key: 'projectSetup.msg.min', params: [label, Number(issue.minimum)] }
      return { key: 'projectSetup.msg.required', params: [label] }
    case 'invalid_format':
      return { key: 'projectSetup.msg.keyPattern', params: [] }
    default:
      if (kind === 'choice') return { key: 'projectSetup.msg.select', params: [label] }
      if (kind === 'number' && !empty) return { key: 'projectSetup.msg.integer', params: [label] }
      return { key: 'projectSetup.msg.required', params: [label] }
  }
}

const numberOf = (s: string): number | undefined => (s.trim() === '' ? undefined : Number(s.trim()))

/** The base form as the contract reads it: empty choices and numbers are missing. */
export function baseCandidate(f: BaseForm): Record<BaseField, unknown> {
  return {
    ...f,
    type: f.type === '' ? undefined : f.type,
    testStage: f.testStage === '' ? null : f.testStage,
    groupType: f.groupType === '' ? undefined : f.groupType,
    plannedQuantity: numberOf(f.plannedQuantity),
    plannedGroups: numberOf(f.plannedGroups),
  }
}

/** The project's base fields as the form holds them (the edit page's base tab). */
export function baseFormOf(p: ProjectDetail): BaseForm {
  return {
    type: p.type,
    name: p.name,
    number: p.number,
    testStage: p.testStage ?? '',
    groupNumber: p.groupNumber,
    manageBiomaterial: p.manageBiomaterial,
    groupType: p.groupType,
    diseaseId: p.diseaseId,
    blinded: p.blinded,
    randomMethod: p.randomMethod,
    plannedQuantity: String(p.plannedQuantity),
    plannedGroups: String(p.plannedGroups),
    therapyTime: p.therapyTime,
    followUpTime: p.followUpTime,
  }
}

export function validateBase(f: BaseForm): { input: ProjectBaseInput | null; errors: Partial<Record<BaseField, Message>> } {
  const errors: Partial<Record<BaseField, Message>> = {}
  const candidate = baseCandidate(f)
  const parsed = projectBaseInput.safeParse(candidate)
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const field = issue.path[0] as BaseField
      if (errors[field]) continue
      errors[field] = issueMessage(issue, baseLabel(field), baseKinds[field], f[field])
    }
  }
  // The rules between fields apply as soon as the fields they read are there.
  const groups = numberOf(f.plannedGroups)
  if (f.groupType !== '' && groups !== undefined && Number.isInteger(groups)) {
    for (const broken of baseRules({ groupType: f.groupType, plannedGroups: groups, randomMethod: f.randomMethod })) {
      errors[broken.field] ??= { key: broken.key.replace(/^project\./, 'projectSetup.'), params: [] }
    }
  }
  return { input: parsed.success && Object.keys(errors).length === 0 ? parsed.data : null, errors }
}

export type QueueErrors = Partial<Record<QueueField, Message>>

/** Each queue against the contract, and no key used twice (any case, as the server compares). */
export function validateQueues(domains: readonly QueueDomain[]): { input: QueueInput[] | null; errors: QueueErrors[] } {
  const errors: QueueErrors[] = []
  const input: QueueInput[] = []
  const seen = new Set<string>()
  domains.forEach((d, i) => {
    const mine: QueueErrors = {}
    errors[i] = mine
    const parsed = queueInput.safeParse(d)
    if (parsed.success) input.push(parsed.data)
    else
      for (const issue of parsed.error.issues) {
        const field = issue.path[0] as QueueField
        mine[field] ??= issueMessage(issue, queueLabel(field), 'text', d[field])
      }
    const key = d.key.trim().toLowerCase()
    if (key !== '' && seen.has(key)) mine.key ??= { key: 'projectSetup.msg.keyTwice', params: [d.key.trim()] }
    seen.add(key)
  })
  const ok = errors.every((e) => Object.keys(e).length === 0)
  return { input: ok ? input : null, errors }
}

export function validateCenter(f: CenterInput): { input: CenterInput | null; errors: Partial<Record<CenterField, Message>> } {
  const errors: Partial<Record<CenterField, Message>> = {}
  const parsed = centerInput.safeParse(f)
  if (parsed.success) return { input: parsed.data, errors }
  for (const issue of parsed.error.issues) {
    const field = issue.path[0] as CenterField
    errors[field] ??= issueMessage(issue, centerLabel(field), 'text', f[field])
  }
  return { input: null, errors }
}

/** A single-center project has exactly one center; a multi-center one any number. */
export function centerProblem(scope: 'multi' | 'single', count: number): Message | null {
  if (scope === 'single' && count === 0) return { key: 'projectSetup.msg.pickCenter', params: [] }
  if (scope === 'single' && count > 1) return { key: 'projectSetup.msg.oneCenter', params: [] }
  return null
}

export function messageText(t: (key: string, params?: (string | number)[]) => string, m: Message): string {
  return t(
    m.key,
    m.params.map((p) => (typeof p === 'string' && p.startsWith('projectSetup.') ? t(p) : p)),
  )
}
