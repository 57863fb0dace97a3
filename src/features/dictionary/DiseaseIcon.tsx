import type { ReactNode } from 'react'
import { Icon, type IconName } from '@blueprintjs/core'

/**
 * The seeded disease and treatment-timeline icons (SPEC §1), drawn as small inline SVGs on a
 * 24×24 grid with the current colour; any other id is taken as a Blueprint icon name.
 */
const paths: Record<string, ReactNode> = {
  // Alzheimer's disease
  brain: (
    <>
      <path d="M9.5 4.5a3 3 0 0 0-3 3 3 3 0 0 0-2.5 3.2A3 3 0 0 0 5 15a3.2 3.2 0 0 0 3.5 4.2A2.6 2.6 0 0 0 12 20V6a2.6 2.6 0 0 0-2.5-1.5Z" />
      <path d="M14.5 4.5a3 3 0 0 1 3 3 3 3 0 0 1 2.5 3.2A3 3 0 0 1 19 15a3.2 3.2 0 0 1-3.5 4.2A2.6 2.6 0 0 1 12 20" />
      <path d="M8 10c1 .2 2 .9 2.2 2M16 10c-1 .2-2 .9-2.2 2M8.5 15.5c.8-.6 1.8-.7 2.6-.3M15.5 15.5c-.8-.6-1.8-.7-2.6-.3" />
    </>
  ),
  // Multiple sclerosis
  neuron: (
    <>
      <circle cx="9" cy="10" r="3" />
      <path d="M7 7.8 4.5 4.5M6.2 11.2 3 12.5M9.5 7 10 3.5M11.6 11.5l3.4 3 2 3.5M17 18l3 .5M17 18l-.5 2.5" />
      <path d="m13.2 13 1.2-1M15.5 15.3l1.2-1" />
    </>
  ),
  // Prostate cancer
  prostate: (
    <>
      <path d="M12 4c-4 0-7 3-7 7 0 4.5 3.5 8 7 9 3.5-1 7-4.5 7-9 0-4-3-7-7-7Z" />
      <path d="M12 4v16M9 9.5c.8 1 .8 3.5 0 5M15 9.5c-.8 1-.8 3.5 0 5" />
    </>
  ),
  // Myeloma
  bone: (
    <>
      <path d="M7.5 4.2a2.3 2.3 0 0 0-3.3 3.3 2.3 2.3 0 0 0 1.9 3.4l7.9 7.9a2.3 2.3 0 0 0 3.4 1.9 2.3 2.3 0 0 0 3.3-3.3 2.3 2.3 0 0 0-1.9-3.4L10.9 6.1a2.3 2.3 0 0 0-3.4-1.9Z" />
      <circle cx="12" cy="12" r="1.2" />
    </>
  ),
  // Lung cancer
  lungs: (
    <>
      <path d="M12 3v8M12 11l-3 2M12 11l3 2" />
      <path d="M9 7C6.5 7 4 11 4 16c0 2.5 1.5 4 3.5 4S10 18.5 10 16V9.5C10 8 9.6 7 9 7Z" />
      <path d="M15 7c2.5 0 5 4 5 9 0 2.5-1.5 4-3.5 4S14 18.5 14 16V9.5C14 8 14.4 7 15 7Z" />
    </>
  ),
  // Diabetes
  glucose: (
    <>
      <path d="M12 3.5S6.5 9.8 6.5 14a5.5 5.5 0 0 0 11 0C17.5 9.8 12 3.5 12 3.5Z" />
      <path d="M9.5 14.5h5M12 12v5" />
    </>
  ),
  // Leukemia
  blood: (
    <>
      <circle cx="8.5" cy="9" r="4" />
      <circle cx="8.5" cy="9" r="1.5" />
      <circle cx="16" cy="15.5" r="4.5" />
      <path d="M14.3 14.2c.8-.6 2.2-.6 3 .2M14.7 17c.7.4 1.6.4 2.4 0" />
    </>
  ),
  // Radiotherapy
  radiation: (
    <>
      <circle cx="12" cy="12" r="1.6" />
      <path d="M12 10.4 9.5 6a7 7 0 0 1 5 0ZM13.4 12.8l5.1.1a7 7 0 0 1-2.5 4.4ZM10.6 12.8 8 17.3a7 7 0 0 1-2.5-4.4Z" />
      <circle cx="12" cy="12" r="9" />
    </>
  ),
  // Chemotherapy
  infusion: (
    <>
      <path d="M8 3h8v8a4 4 0 0 1-8 0V3Z" />
      <path d="M8 7h8M12 15v3M10.5 18h3M12 18v3" />
      <path d="M12 21c2 0 3-.5 4-1.5" />
    </>
  ),
  // Surgery
  scalpel: (
    <>
      <path d="m4 20 9.5-9.5 2.5 2.5C13 17 8 19.5 4 20Z" />
      <path d="m13.5 10.5 5-5a1.8 1.8 0 0 1 2.5 2.5l-5 5" />
    </>
  ),
  // Pathology
  microscope: (
    <>
      <path d="M6 20h12M9 17h6M12 17v3" />
      <path d="m10 4 3 1.5-3.5 7-3-1.5Z" />
      <path d="M10.5 10.5A5 5 0 0 1 17 15a5 5 0 0 1-2 2" />
      <path d="m11.5 3 .5-1M8 12.5l-1 2" />
    </>
  ),
  // Examination
  stethoscope: (
    <>
      <path d="M6 3v6a4 4 0 0 0 8 0V3" />
      <path d="M10 13v2a5 5 0 0 0 10 0v-2" />
      <circle cx="20" cy="11" r="2" />
      <path d="M5 3h2M13 3h2" />
    </>
  ),
}

/** The icon ids drawn here (the rest fall back to Blueprint). */
export const drawnIcons: readonly string[] = Object.keys(paths)

export function DiseaseIcon({ icon, size = 24, title }: { icon: string; size?: number; title?: string }) {
  const drawn = paths[icon]
  if (!drawn) return <Icon icon={(icon || 'pulse') as IconName} size={size} title={title} className="disease-icon" />
  return (
    <svg
      className="disease-icon"
      data-icon={icon}
      width={size}
      height={size}
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth={1.6}
      strokeLinecap="round"
      strokeLinejoin="round"
      role={title ? 'img' : undefined}
      aria-hidden={title ? undefined : true}
    >
      {title && <title>{title}</title>}
      {drawn}
    </svg>
  )
}
