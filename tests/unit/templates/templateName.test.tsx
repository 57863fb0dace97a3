import { renderToStaticMarkup } from 'react-dom/server'
import { describe, expect, it } from 'vitest'
import { template as templateSchema, type Template } from '../../../contract/crf.ts'
import type { Permission } from '../../../contract/permissions.ts'
import { getCommand } from '../../../commands/registry.ts'
import { TemplateName } from '../../../src/features/templates/TemplateName.tsx'
import { CommandHostContext, type CommandHost } from '../../../src/ui/commandHost.tsx'
import { testContext } from '../../commands/context.ts'

const crf: Template = templateSchema.parse({
  id: 7,
  kind: 'crf',
  name: 'Baseline visit',
  indexCount: 3,
  draft: null,
  published: null,
  updatedAt: '2026-11-27T08:00:00.000Z',
})

function render(grants: readonly Permission[]): string {
  const ctx = testContext({ grants, lang: 'en' })
  const host: CommandHost = { context: () => ctx, run: async () => ({ ok: true }), command: getCommand, hotkeyLabel: () => null }
  return renderToStaticMarkup(
    <CommandHostContext.Provider value={host}>
      <TemplateName template={crf} kind="crf" />
    </CommandHostContext.Provider>,
  )
}

describe("a template's name in the manager", () => {
  it('opens the designer for whoever may edit templates', () => {
    const html = render(['template.view', 'template.edit'])
    expect(html).toContain('data-testid="cmd-templates.design"')
    expect(html).toContain('Baseline visit')
  })

  it('stays, opening the preview, for whoever may only read them', () => {
    const html = render(['template.view'])
    expect(html).toContain('data-testid="cmd-templates.previewOf"')
    expect(html).toContain('Baseline visit')
  })
})
