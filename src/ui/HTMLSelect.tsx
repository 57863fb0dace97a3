import { forwardRef } from 'react'
import { HTMLSelect as BlueprintHTMLSelect, type HTMLSelectProps } from '@blueprintjs/core'

/**
 * Blueprint's HTMLSelect with a silent caret: Blueprint titles the caret icon "Open dropdown" in
 * every language, so a screen reader read English on Chinese screens. The caret only decorates a
 * select that has its own label, so here it has no title and is hidden from assistive technology.
 */
export const HTMLSelect = forwardRef<HTMLSelectElement, HTMLSelectProps>(function HTMLSelect(props, ref) {
  return <BlueprintHTMLSelect ref={ref} {...props} iconProps={{ ...props.iconProps, title: undefined }} />
})
