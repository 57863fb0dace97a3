import { DesignerView } from './DesignerView.tsx'

/** assignCRFFields?id=: the designer with the indicator picker beside it. */
export default function AssignCrfFieldsPage({ path }: { path: string }) {
  return <DesignerView kind="crf" path={path} mode="assign" />
}
