import { registerDecorator, ValidationArguments, ValidationOptions } from 'class-validator';
import { isAlpha2 } from 'src/core/countries/iso-3166';
import { TAX_ID_TYPES, TaxIdType, taxIdProblem } from 'src/modules/investors/validation/tax-ids';

const DATE_ONLY = /^(\d{4})-(\d{2})-(\d{2})$/;

/** Parses `YYYY-MM-DD` as a real calendar date (UTC), or undefined. */
export function parseDateOnly(value: string): Date | undefined {
  const m = DATE_ONLY.exec(value);
  if (!m) {
    return undefined;
  }
  const date = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return date.toISOString().slice(0, 10) === value ? date : undefined;
}

/** Whole years between a birth date and `now` (UTC). */
export function ageOn(birth: Date, now: Date): number {
  let age = now.getUTCFullYear() - birth.getUTCFullYear();
  const beforeBirthday =
    now.getUTCMonth() < birth.getUTCMonth() ||
    (now.getUTCMonth() === birth.getUTCMonth() && now.getUTCDate() < birth.getUTCDate());
  if (beforeBirthday) {
    age -= 1;
  }
  return age;
}

/** A `YYYY-MM-DD` calendar date in the past, of someone at least `minAge` and at most 130 years old. */
export function IsBirthDateOfAdult(minAge: number, options?: ValidationOptions): PropertyDecorator {
  return (target, propertyName) =>
    registerDecorator({
      name: 'isBirthDateOfAdult',
      target: target.constructor,
      propertyName: propertyName as string,
      options,
      validator: {
        validate(value: unknown) {
          if (typeof value !== 'string') {
            return false;
          }
          const birth = parseDateOnly(value);
          const now = new Date();
          return (
            birth !== undefined && birth < now && ageOn(birth, now) >= minAge && ageOn(birth, now) <= 130
          );
        },
        defaultMessage(args: ValidationArguments) {
          const birth = typeof args.value === 'string' ? parseDateOnly(args.value) : undefined;
          if (!birth) {
            return `${args.property} must be a calendar date formatted YYYY-MM-DD`;
          }
          if (birth >= new Date()) {
            return `${args.property} must be in the past`;
          }
          return `${args.property} must make the investor at least ${minAge} years old`;
        },
      },
    });
}

/** `tax_id` formatted as its sibling `tax_id_type` requires. */
export function IsTaxIdOfType(typeProperty: string, options?: ValidationOptions): PropertyDecorator {
  return (target, propertyName) =>
    registerDecorator({
      name: 'isTaxIdOfType',
      target: target.constructor,
      propertyName: propertyName as string,
      options,
      validator: {
        validate(value: unknown, args: ValidationArguments) {
          const type = (args.object as Record<string, unknown>)[typeProperty];
          if (typeof value !== 'string') {
            return false;
          }
          if (typeof type !== 'string' || !TAX_ID_TYPES.includes(type as TaxIdType)) {
            return true; // the type's own validation reports it
          }
          return taxIdProblem(type as TaxIdType, value) === undefined;
        },
        defaultMessage(args: ValidationArguments) {
          const type = (args.object as Record<string, unknown>)[typeProperty] as TaxIdType;
          const problem =
            typeof args.value === 'string' ? taxIdProblem(type, args.value) : 'must be a string';
          return `${args.property} ${problem ?? 'is invalid'}`;
        },
      },
    });
}

/** An assigned ISO 3166-1 alpha-2 code in upper case. */
export function IsCountryAlpha2(options?: ValidationOptions): PropertyDecorator {
  return (target, propertyName) =>
    registerDecorator({
      name: 'isCountryAlpha2',
      target: target.constructor,
      propertyName: propertyName as string,
      options,
      validator: {
        validate: (value: unknown) => typeof value === 'string' && isAlpha2(value),
        defaultMessage: (args: ValidationArguments) =>
          `${args.property} must be an ISO 3166-1 alpha-2 country code in upper case, such as US`,
      },
    });
}
