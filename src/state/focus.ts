/**
 * What each view publishes about itself, by its full path: the record it shows (its tab and pane
 * header carry the record's name) and the capabilities it offers commands while it has the focus.
 * The command context reads the focused path's entry; no shared file lists what views offer.
 */
import { useEffect, type RefObject } from 'react'
import { proxy, ref, useSnapshot } from 'valtio'
import type { Capability, FocusedRecord } from '../../commands/context.ts'

export interface Published {
  record?: FocusedRecord
  /** By capability id: read at the moment a command asks. */
  capabilities: Record<string, () => unknown>
}

export const published = proxy<Record<string, Published>>({})

/** One capability of a view: `read` answers its current actions (undefined while it has none). */
export const provide = <T>(cap: Capability<T>, read: () => T | undefined): [string, () => unknown] => [cap.id, read]

/** Publishes (and on change replaces) what the view at `path` shows and offers; withdrawn on unmount. */
export function usePublish(path: string, record: FocusedRecord | undefined, capabilities: readonly [string, () => unknown][] = []): void {
  const kind = record?.kind
  const id = record?.id
  const name = record?.name
  useEffect(() => {
    published[path] = {
      record: kind !== undefined && id !== undefined && name !== undefined ? { kind, id, name } : undefined,
      capabilities: ref(Object.fromEntries(capabilities)),
    }
    // Capabilities read their store (by path) when asked: a new array of the same ones changes nothing.
  }, [path, kind, id, name])
  useEffect(
    () => () => {
      delete published[path]
    },
    [path],
  )
}

/** The view a command has just opened: it takes the keyboard focus once it shows. */
const arrival = proxy({ path: null as string | null, seq: 0 })

export function requestViewFocus(path: string): void {
  arrival.path = path
  arrival.seq++
}

/** How long a view that is ready may take to show (its pane adopted after the navigation), in frames. */
const arrivalFrames = 60

/** Views that say where the focus lands in them; the others get the frame's landing (useLandingFocus). */
const ownLanding = new Set<string>()

/**
 * When a command has just opened the view at `path` (create, preview, open), puts the focus on
 * the first element of `root` matching one of `selectors` (tried in order) as soon as `ready` and
 * on screen: a keyboard user lands in the new view, not on the body. A tab shown again is ready
 * before its pane takes it out of hiding, and a dialog the user opened meanwhile (the palette)
 * keeps the focus: each is waited for a frame at a time, and the request lapses after a second.
 */
export function useArrivalFocus(path: string, root: RefObject<HTMLElement | null>, ready: boolean, selectors: readonly string[]): void {
  useEffect(() => {
    ownLanding.add(path)
    return () => void ownLanding.delete(path)
  }, [path])
  useFocusOnArrival(path, root, ready, selectors, false)
}

/** Where the focus lands in a view that names no place of its own: its title (else, at the last frame, the view itself). */
const landing = ['h3', 'h4', '[role="tab"][aria-selected="true"]']

/**
 * The frame of every view: a command that opened a view which names no landing of its own (a
 * list, a project's pages) puts the focus on its title. Left where it was, the focus fell to the
 * page with the view it was in, and the next key did nothing.
 */
export function useLandingFocus(path: string, root: RefObject<HTMLElement | null>): void {
  useFocusOnArrival(path, root, true, landing, true)
}

function useFocusOnArrival(
  path: string,
  root: RefObject<HTMLElement | null>,
  ready: boolean,
  selectors: readonly string[],
  fallback: boolean,
): void {
  const { seq } = useSnapshot(arrival)
  useEffect(() => {
    if (!ready || arrival.path !== path || (fallback && ownLanding.has(path))) return
    const asked = arrival.seq
    let frame = 0
    const attempt = (left: number) => {
      if (arrival.path !== path || arrival.seq !== asked || (fallback && ownLanding.has(path))) return
      // A view that put the focus in itself (an input's autoFocus) has landed.
      if (fallback && root.current?.contains(document.activeElement)) return void (arrival.path = null)
      // A view still loading its code shows no title yet: the view itself only when time is up.
      const tried = fallback && left === 0 ? [...selectors, ':scope > *'] : selectors
      const shown = tried.map((s) => root.current?.querySelector<HTMLElement>(s)).find((el) => el && el.getClientRects().length > 0)
      const inDialog = document.activeElement?.closest('[role="dialog"], [role="alertdialog"]')
      if (!shown || inDialog) {
        if (left > 0) frame = requestAnimationFrame(() => attempt(left - 1))
        else arrival.path = null
        return
      }
      arrival.path = null
      // A heading is focusable only while it holds this focus: a dialog that later returns the
      // focus to what had it must not take it from the item the user has moved on to.
      if (!shown.hasAttribute('tabindex') && shown.tabIndex < 0) {
        shown.tabIndex = -1
        shown.addEventListener('blur', () => shown.removeAttribute('tabindex'), { once: true })
      }
      shown.focus()
    }
    attempt(arrivalFrames)
    return () => cancelAnimationFrame(frame)
  }, [seq, ready, path])
}
