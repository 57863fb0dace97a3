import { TemplateManager } from './TemplateManager.tsx'

/** crf-template and crfTemplate: the CRF manager. */
export default function CrfManagerPage({ path }: { path: string }) {
  return <TemplateManager kind="crf" path={path} />
}
