import { PatternTextField } from 'src/core/http/text-field';
import { DecimalField, moneyAmountMessage } from 'src/core/money/decimal-field';

export const GOAL_TYPES = [
  'retirement',
  'home_purchase',
  'education',
  'emergency_fund',
  'major_purchase',
  'travel',
  'wealth_building',
  'other',
] as const;
export type GoalType = (typeof GOAL_TYPES)[number];

export const GOAL_STATUSES = ['active', 'achieved', 'archived'] as const;
export type GoalStatus = (typeof GOAL_STATUSES)[number];

export const PLAN_STATUSES = ['active', 'archived'] as const;
export type PlanStatus = (typeof PLAN_STATUSES)[number];

export const RISK_CAPACITIES = ['low', 'medium', 'high'] as const;

/** A yearly rate as a decimal fraction ("0.06" is 6 %), sign allowed, up to 6 decimals. */
export const RATE_PATTERN = /^-?(0|[1-9][0-9]?)(\.[0-9]{1,6})?$/;
export const DATE_PATTERN = /^\d{4}-\d{2}-\d{2}$/;

/** A money amount in the plan (the account's currency): decimal string, at most its minor units. */
export function AmountField(options: { required: boolean; description?: string; example: string }) {
  return DecimalField({
    required: options.required,
    description:
      (options.description ? `${options.description} ` : '') +
      'Decimal string in the account\u2019s currency, at most its minor units (USD 2).',
    example: options.example,
    message: moneyAmountMessage('2500.00'),
  });
}

/** A calendar date written YYYY-MM-DD. */
export function DateField(options: { required: boolean; description: string; example: string }) {
  return PatternTextField({
    required: options.required,
    doc: {
      type: String,
      format: 'date',
      maxLength: 10,
      description: options.description,
      example: options.example,
    },
    maxLength: 10,
    pattern: DATE_PATTERN,
    message: '$property must be a date written YYYY-MM-DD',
  });
}

/** A yearly rate as a decimal fraction string. */
export function RateField(options: { description: string; example: string; nullable?: boolean }) {
  return PatternTextField({
    required: false,
    doc: {
      type: String,
      maxLength: 12,
      pattern: RATE_PATTERN.source,
      nullable: options.nullable,
      description: options.description,
      example: options.example,
    },
    maxLength: 12,
    pattern: RATE_PATTERN,
    message: '$property must be a decimal fraction string such as "0.06"',
  });
}

/** A short name. */
export function NameField(example: string, required = true) {
  return PatternTextField({
    required,
    doc: { minLength: 1, maxLength: 200, example },
    maxLength: 200,
    pattern: /\S/,
    message: '$property must not be blank',
  });
}
