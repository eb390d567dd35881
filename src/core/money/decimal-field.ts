import { PatternTextField } from 'src/core/http/text-field';

/**
 * A non-negative decimal as request text: digits, an optional fraction of up to 8 decimals, no sign,
 * exponent or leading zeros. What depends on the object (the currency's decimals, a tenant's
 * bounds, an instrument's increment) is checked by the service once it is known.
 */
export const DECIMAL_INPUT_PATTERN = /^(0|[1-9][0-9]{0,14})(\.[0-9]{1,8})?$/;
export const DECIMAL_INPUT_MAX_LENGTH = 32;

/** The 400 message of a money amount field, with an example of the expected text. */
export function moneyAmountMessage(example: string): string {
  return (
    `$property must be a decimal string such as "${example}" ` +
    '(no sign, exponent or number; at most the currency\u2019s decimals)'
  );
}

export interface DecimalFieldOptions {
  required: boolean;
  description: string;
  example: string;
  /** The 400 message when the text does not match; `$property` is the field's name. */
  message: string;
}

/** A request field holding a decimal as text: documented, and validated to the one pattern. */
export function DecimalField(options: DecimalFieldOptions): PropertyDecorator {
  return PatternTextField({
    required: options.required,
    doc: {
      type: String,
      maxLength: DECIMAL_INPUT_MAX_LENGTH,
      pattern: DECIMAL_INPUT_PATTERN.source,
      description: options.description,
      example: options.example,
    },
    maxLength: DECIMAL_INPUT_MAX_LENGTH,
    pattern: DECIMAL_INPUT_PATTERN,
    message: options.message,
  });
}
