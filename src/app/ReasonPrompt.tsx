import { proxy, useSnapshot } from 'valtio'
import { ReasonDialog } from '../features/subjects/detail/ReasonDialog.tsx'

const state = proxy({ open: false, question: '', detail: '', seq: 0 })
let resolve: ((reason: string | null) => void) | null = null

/** The reason a command's change of saved data needs (ctx.ui.reason); null when cancelled. */
export function reasonPrompt(question: string, detail = ''): Promise<string | null> {
  resolve?.(null)
  state.open = true
  state.question = question
  state.detail = detail
  state.seq += 1
  return new Promise((r) => {
    resolve = r
  })
}

function answer(reason: string | null) {
  state.open = false
  resolve?.(reason)
  resolve = null
}

export function ReasonPrompt() {
  const { open, question, detail, seq } = useSnapshot(state)
  if (!open) return null
  return <ReasonDialog key={seq} question={question} detail={detail} onDone={answer} />
}
