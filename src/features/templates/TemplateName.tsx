import type { Template, TemplateKind } from '../../../contract/crf.ts'
import { isAvailable } from '../../../commands/registry.ts'
import { useCommandHost } from '../../ui/commandHost.tsx'
import { CommandButton } from '../../ui/CommandButton.tsx'

/**
 * A template's name in the manager's list: it opens the designer, or for whoever may only read
 * templates the preview (a button hidden for want of the designer took the name with it).
 */
export function TemplateName({ template, kind }: { template: Template; kind: TemplateKind }) {
  const host = useCommandHost()
  const designs = isAvailable(host.command('templates.design'), host.context())
  return (
    <span data-testid="template-row" data-id={template.id}>
      <CommandButton
        id={designs ? 'templates.design' : 'templates.previewOf'}
        args={designs ? { id: template.id, kind } : { id: template.id }}
        label={template.name}
        className="template-name"
        variant="minimal"
        size="small"
      />
    </span>
  )
}
