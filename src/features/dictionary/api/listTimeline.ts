import type { z } from 'zod'
import { dictionaryPaths, timelineItem, timelineListResponse } from '../../../../contract/dictionary.ts'
import { get, type RequestOptions } from '../../../api/client.ts'

export type TimelineItem = z.infer<typeof timelineItem>

/** GET api/dictionary/timeline: the treatment-timeline items (radiotherapy, chemotherapy …). */
export async function listTimeline(options?: RequestOptions<TimelineItem[]>): Promise<TimelineItem[]> {
  const res = await get<TimelineItem[]>(dictionaryPaths.timeline, undefined, { schema: timelineListResponse, ...options })
  return res.data ?? []
}
