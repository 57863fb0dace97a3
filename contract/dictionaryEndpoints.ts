/** The dictionary calls the client makes (contract/dictionary.ts holds the schemas and paths). */
import { z } from 'zod'
import { endpoint, noData } from './endpoint.ts'
import {
  dictionaryPaths,
  disease,
  diseaseInput,
  indicator,
  indicatorInput,
  indicatorListQuery,
  indicatorPage,
  statusBody,
  timelineItem,
} from './dictionary.ts'

const id = z.number().int().positive()

export const getIndicator = endpoint({
  method: 'GET',
  input: z.object({ id }),
  output: indicator,
  request: ({ id }) => ({ path: dictionaryPaths.indicator(id) }),
})

/** One keyset page (pass the last page's `next` as `after`). */
export const listIndicators = endpoint({
  method: 'GET',
  input: indicatorListQuery.partial(),
  output: indicatorPage,
  request: (query) => ({ path: dictionaryPaths.indicators, query }),
})

export const listDiseases = endpoint({
  method: 'GET',
  input: z.object({}),
  output: z.array(disease),
  request: () => ({ path: dictionaryPaths.diseases }),
})

/** The treatment-timeline items (radiotherapy, chemotherapy …). */
export const listTimeline = endpoint({
  method: 'GET',
  input: z.object({}),
  output: z.array(timelineItem),
  request: () => ({ path: dictionaryPaths.timeline }),
})

export const createIndicator = endpoint({
  method: 'POST',
  input: indicatorInput,
  output: indicator,
  request: (input) => ({ path: dictionaryPaths.indicators, body: input }),
})

export const updateIndicator = endpoint({
  method: 'PUT',
  input: z.object({ id, input: indicatorInput }),
  output: indicator,
  request: ({ id, input }) => ({ path: dictionaryPaths.indicator(id), body: input }),
})

export const setIndicatorStatus = endpoint({
  method: 'PUT',
  input: statusBody.extend({ id }),
  output: indicator,
  request: ({ id, status }) => ({ path: dictionaryPaths.indicatorStatus(id), body: { status } }),
})

export const deleteIndicator = endpoint({
  method: 'DELETE',
  input: z.object({ id }),
  output: noData,
  request: ({ id }) => ({ path: dictionaryPaths.indicator(id) }),
})

export const createDisease = endpoint({
  method: 'POST',
  input: diseaseInput,
  output: disease,
  request: (input) => ({ path: dictionaryPaths.diseases, body: input }),
})

export const updateDisease = endpoint({
  method: 'PUT',
  input: z.object({ id, input: diseaseInput }),
  output: disease,
  request: ({ id, input }) => ({ path: dictionaryPaths.disease(id), body: input }),
})

export const deleteDisease = endpoint({
  method: 'DELETE',
  input: z.object({ id }),
  output: noData,
  request: ({ id }) => ({ path: dictionaryPaths.disease(id) }),
})
