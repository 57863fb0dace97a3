import { Card, H3, H5, Icon, type IconName } from '@blueprintjs/core'
import { useT } from '../i18n/useT.ts'

/**
 * A screen whose content a later issue delivers: its title, what it will hold, and the
 * commands that already reach it. Not a placeholder text: the list is the screen's plan.
 */
export function PlannedScreen({ title, planKey, icon }: { title: string; planKey: string; icon?: IconName }) {
  const t = useT()
  const items = t(planKey)
    .split('\n')
    .filter((line) => line.trim() !== '')
  return (
    <div className="planned-screen" data-testid="planned-screen">
      <H3>
        {icon && <Icon icon={icon} size={20} className="planned-icon" />}
        {t(title)}
      </H3>
      <Card compact>
        <H5>{t('plan.heading')}</H5>
        <ul>
          {items.map((line) => (
            <li key={line}>{line}</li>
          ))}
        </ul>
      </Card>
    </div>
  )
}
