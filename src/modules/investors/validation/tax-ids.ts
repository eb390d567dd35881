/**
 * Tax id types (regulatory vocabulary: `tax_id_type`), each named `<ISO alpha-3 of the issuing
 * country>_<scheme>`, with the format its `tax_id` must have once spaces are removed.
 * `NOT_SPECIFIED` is for residences without a listed scheme; its tax id is optional.
 */
interface TaxIdScheme {
  country: string | null;
  pattern: RegExp;
  example: string;
  check?: (digits: string) => boolean;
}

function luhnValid(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) {
        d -= 9;
      }
    }
    sum += d;
  }
  return sum % 10 === 0;
}

export const TAX_ID_SCHEMES = {
  USA_SSN: {
    country: 'USA',
    // Area 000, 666 and 900-999, group 00 and serial 0000 are never issued.
    pattern: /^(?!000|666|9\d\d)\d{3}-?(?!00)\d{2}-?(?!0000)\d{4}$/,
    example: '123-45-6789',
  },
  USA_ITIN: {
    country: 'USA',
    pattern: /^9\d{2}-?(5\d|6[0-5]|7\d|8[0-8]|9[0-24-9])-?\d{4}$/,
    example: '912-70-1234',
  },
  CAN_SIN: {
    country: 'CAN',
    pattern: /^\d{3}-?\d{3}-?\d{3}$/,
    example: '046-454-286',
    check: (v) => luhnValid(v.replace(/-/g, '')),
  },
  GBR_NINO: {
    country: 'GBR',
    pattern: /^(?!BG|GB|NK|KN|TN|NT|ZZ)[A-CEGHJ-PR-TW-Z][A-CEGHJ-NPR-TW-Z]\d{6}[A-D]$/,
    example: 'AB123456C',
  },
  GBR_UTR: { country: 'GBR', pattern: /^\d{10}$/, example: '1234567890' },
  DEU_TAX_ID: { country: 'DEU', pattern: /^\d{11}$/, example: '12345678903' },
  FRA_SPI: { country: 'FRA', pattern: /^[0-3]\d{12}$/, example: '3023217600053' },
  IND_PAN: { country: 'IND', pattern: /^[A-Z]{5}\d{4}[A-Z]$/, example: 'ABCPE1234F' },
  NGA_TIN: { country: 'NGA', pattern: /^(\d{10}|\d{8}-?\d{4})$/, example: '12345678-0001' },
  NGA_NIN: { country: 'NGA', pattern: /^\d{11}$/, example: '12345678901' },
  KEN_KRA_PIN: { country: 'KEN', pattern: /^[AP]\d{9}[A-Z]$/, example: 'A123456789Z' },
  BRA_CPF: { country: 'BRA', pattern: /^\d{3}\.?\d{3}\.?\d{3}-?\d{2}$/, example: '123.456.789-09' },
  MEX_RFC: { country: 'MEX', pattern: /^[A-ZÑ&]{4}\d{6}[A-Z\d]{3}$/, example: 'GODE561231GR8' },
  SGP_NRIC: { country: 'SGP', pattern: /^[STFGM]\d{7}[A-Z]$/, example: 'S1234567D' },
  AUS_TFN: { country: 'AUS', pattern: /^\d{8,9}$/, example: '123456782' },
  NOT_SPECIFIED: { country: null, pattern: /^[A-Z0-9./-]{1,40}$/, example: 'X1234567' },
} as const satisfies Record<string, TaxIdScheme>;

export type TaxIdType = keyof typeof TAX_ID_SCHEMES;
export const TAX_ID_TYPES = Object.keys(TAX_ID_SCHEMES) as TaxIdType[];

/** The canonical form compared and stored: upper case, spaces removed. */
export function normalizeTaxId(value: string): string {
  return value.replace(/\s+/g, '').toUpperCase();
}

/** Undefined when `taxId` is a well-formed id of `type`, otherwise why it is not. */
export function taxIdProblem(type: TaxIdType, taxId: string): string | undefined {
  const scheme: TaxIdScheme = TAX_ID_SCHEMES[type];
  const value = normalizeTaxId(taxId);
  if (!scheme.pattern.test(value) || (scheme.check && !scheme.check(value))) {
    return `is not a valid ${type} (for example ${scheme.example})`;
  }
  return undefined;
}

/** Alpha-3 code of the country issuing this tax id type, or null for NOT_SPECIFIED. */
export function taxIdCountry(type: TaxIdType): string | null {
  return TAX_ID_SCHEMES[type].country;
}

/** What partners see: the last four characters only (stored in clear as `tax_id_last4`). */
export function maskTaxId(last4: string | null): string | null {
  return last4 === null ? null : `*****${last4}`;
}
