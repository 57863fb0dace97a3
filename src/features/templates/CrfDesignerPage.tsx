import { DesignerView } from './DesignerView.tsx'

/** edit-crf-temp?id=: the CRF layout designer. */
export default function CrfDesignerPage({ path }: { path: string }) {
  return <DesignerView kind="crf" path={path} mode="design" />
}
