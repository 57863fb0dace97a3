import { DesignerView } from './DesignerView.tsx'

/** edit-subject-temp?id=: the question-group layout designer. */
export default function SubjectDesignerPage({ path }: { path: string }) {
  return <DesignerView kind="group" path={path} mode="design" />
}
