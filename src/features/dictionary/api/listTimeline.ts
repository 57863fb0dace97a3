import type { z } from 'zod'
import type { timelineItem } from '../../../../contract/dictionary.ts'
import { listTimeline as endpoint } from '../../../../contract/dictionaryEndpoints.ts'
import { call, type CallOptions } from '../../../api/call.ts'

export type TimelineItem = z.infer<typeof timelineItem>

/** GET api/dictionary/timeline: the treatment-timeline items (radiotherapy, chemotherapy …). */
export function listTimeline(options?: CallOptions<TimelineItem[]>): Promise<TimelineItem[]> {
  return call(endpoint, {}, options)
}
