import { TemplateManager } from './TemplateManager.tsx'

/** subject-template and subjectTemplate: the question-group manager. */
export default function SubjectManagerPage({ path }: { path: string }) {
  return <TemplateManager kind="group" path={path} />
}
