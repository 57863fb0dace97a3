import { PreviewView } from './PreviewView.tsx'

/** previewCRF?id=&version=: a CRF or question group drawn by the FormRenderer. */
export default function PreviewCrfPage({ path }: { path: string }) {
  return <PreviewView path={path} />
}
