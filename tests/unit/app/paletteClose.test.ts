import { afterEach, describe, expect, it, vi } from 'vitest'
import { afterPaletteClose, finishPaletteClose } from '../../../src/app/paletteClose.ts'

describe('the palette closing step', () => {
  afterEach(() => vi.useRealTimers())

  it('runs a task after the close, once', () => {
    vi.useFakeTimers()
    const finish = vi.fn()
    afterPaletteClose(finish)
    expect(finish).not.toHaveBeenCalled()
    vi.runAllTimers()
    expect(finish).toHaveBeenCalledTimes(1)
    finishPaletteClose()
    expect(finish).toHaveBeenCalledTimes(1)
  })

  it('a hotkey within that task runs it first, and the timer does not run it again', () => {
    vi.useFakeTimers()
    const order: string[] = []
    afterPaletteClose(() => order.push('chosen command'))
    finishPaletteClose()
    order.push('hotkey')
    vi.runAllTimers()
    expect(order).toEqual(['chosen command', 'hotkey'])
  })
})
