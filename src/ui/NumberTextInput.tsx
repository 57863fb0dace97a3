import { NumericInput, type NumericInputProps } from '@blueprintjs/core'

type Props = Omit<NumericInputProps, 'value' | 'onValueChange' | 'buttonPosition' | 'minorStepSize'> & {
  value: string
  onValueChange: (text: string) => void
}

/**
 * Blueprint's NumericInput holding the number as typed: Blueprint reads an emptied field as 0,
 * which a form would then save unasked; the text stays empty, for the form to ask for it. No step
 * buttons: Blueprint puts them in the Tab order between the fields and names them in English;
 * ↑ and ↓ step the number.
 */
export function NumberTextInput({ value, onValueChange, ...props }: Props) {
  return (
    <NumericInput {...props} buttonPosition="none" minorStepSize={null} value={value} onValueChange={(_, text) => onValueChange(text)} />
  )
}
