import { DesignerView } from './DesignerView.tsx'

/** assignSubjectFields?id=: the question-group designer with the indicator picker beside it. */
export default function AssignSubjectFieldsPage({ path }: { path: string }) {
  return <DesignerView kind="group" path={path} mode="assign" />
}
