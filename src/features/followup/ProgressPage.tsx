import { PlannedScreen } from '../../ui/PlannedScreen.tsx'

/** Replaced by the issue 10 work on this screen. */
export default function Page() {
  return <PlannedScreen title="route.progress" planKey="plan.progress" />
}
