/**
 * The upload panel of each project: its choices and the stage of its last upload. Kept outside
 * the view because another tab of the screen is another path (the view is replaced), and an
 * upload running while the user looks at the records must still report where it ended.
 */
import { proxy, ref } from 'valtio'
import type { UploadListener } from '../../../commands/dataLoader.ts'
import type { UploadFormat, UploadResult } from '../../../contract/dataLoader.ts'

export type UploadPhase = 'idle' | 'sending' | 'processing' | 'done' | 'refused' | 'failed'

export interface UploadPanel {
  templateId: number | undefined
  format: UploadFormat
  enrol: boolean
  /** REDCap records: events paired with visits (ids as text), in the order added; blanks are left out when sent. */
  events: { event: string; visit: string }[]
  phase: UploadPhase
  fileName: string
  /** Of the bytes sent, 0..1. */
  fraction: number
  result: UploadResult | null
  failure: string
}

// One proxy per project, made on first use: making one changes no state a view watches.
const panels = new Map<number, UploadPanel>()

export function uploadPanel(studyId: number): UploadPanel {
  let panel = panels.get(studyId)
  if (!panel) {
    panel = proxy<UploadPanel>({
      templateId: undefined,
      format: 'auto',
      enrol: false,
      events: [],
      phase: 'idle',
      fileName: '',
      fraction: 0,
      result: null,
      failure: '',
    })
    panels.set(studyId, panel)
  }
  return panel
}

/** A REDCap export's event column, in a raw-data export and in a labels one. */
const eventColumn = /^(redcap_event_name|event name)$/i

/** The panel's complete event pairs as the upload sends them: event name → visit id. */
export function eventMap(panel: Pick<UploadPanel, 'events'>): Record<string, string> {
  return Object.fromEntries(panel.events.filter((e) => e.event.trim() !== '' && e.visit !== '').map((e) => [e.event.trim(), e.visit]))
}

/** What the panel's state hears of an upload, whichever entry point ran it (button, drop, palette). */
export function panelListener(studyId: number): UploadListener {
  const panel = uploadPanel(studyId)
  // The answer's cell list can be long: kept out of the proxy's tracking.
  const settle = (phase: UploadPhase, result: UploadResult | null, failure = '') => {
    panel.result = result ? ref(result) : null
    panel.failure = failure
    panel.phase = phase
  }
  return {
    start: (fileName) => {
      panel.fileName = fileName
      panel.fraction = 0
      settle('sending', null)
    },
    progress: (fraction) => {
      panel.fraction = fraction
      if (fraction >= 1) panel.phase = 'processing'
    },
    done: (result) => settle('done', result),
    refused: (result) => {
      // Events the file names that no visit is named after come up as pairs to complete (a
      // detected REDCap file turns the format to REDCap, where the pairs are shown and sent).
      for (const e of result.errors)
        if (eventColumn.test(e.column) && e.value !== '' && !panel.events.some((x) => x.event === e.value)) {
          panel.format = 'redcap'
          panel.events.push({ event: e.value, visit: '' })
        }
      settle('refused', result)
    },
    failed: (message) => settle('failed', null, message),
    idle: () => settle('idle', null),
  }
}
