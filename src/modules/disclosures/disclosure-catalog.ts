/** What accepting a disclosure unlocks. `account` ones are needed for KYC approval. */
export const DISCLOSURE_SCOPES = ['account', 'margin_trading', 'crypto', 'options'] as const;
export type DisclosureScope = (typeof DISCLOSURE_SCOPES)[number];

export interface DisclosureEntry {
  agreement: string;
  title: string;
  description: string;
  revision: string;
  effective_date: string;
  required_for: DisclosureScope[];
}

/**
 * The regulatory documents an investor accepts, at their current revision. A new revision is
 * published by changing it here; acceptances of older revisions stay on record.
 */
export const DISCLOSURES: readonly DisclosureEntry[] = [
  {
    agreement: 'customer_agreement',
    title: 'Customer Agreement',
    description:
      'Terms of the brokerage account, custody, fees and dispute resolution. Needed to open any account.',
    revision: '2025-06',
    effective_date: '2025-06-01',
    required_for: ['account'],
  },
  {
    agreement: 'data_sharing_consent',
    title: 'Data Sharing Consent',
    description: 'Consent to share account and identity data between the partner and the broker.',
    revision: '2025-01',
    effective_date: '2025-01-15',
    required_for: [],
  },
  {
    agreement: 'margin_agreement',
    title: 'Margin Agreement',
    description: 'Terms of borrowing against the account. Needed before trading_type can be margin.',
    revision: '2024-10',
    effective_date: '2024-10-01',
    required_for: ['margin_trading'],
  },
  {
    agreement: 'crypto_agreement',
    title: 'Crypto Agreement',
    description: 'Risks and custody of crypto assets. Needed before enabled_assets can include crypto.',
    revision: '2025-03',
    effective_date: '2025-03-01',
    required_for: ['crypto'],
  },
  {
    agreement: 'options_agreement',
    title: 'Options Agreement',
    description: 'Characteristics and risks of standardized options. Needed before enabling us_option.',
    revision: '2024-04',
    effective_date: '2024-04-01',
    required_for: ['options'],
  },
];

export const AGREEMENT_NAMES = DISCLOSURES.map((d) => d.agreement);

/** Agreements KYC requires before an account can be approved. */
export const AGREEMENTS_REQUIRED_FOR_ACCOUNT = DISCLOSURES.filter((d) =>
  d.required_for.includes('account'),
).map((d) => d.agreement);

export function currentDisclosure(agreement: string): DisclosureEntry | undefined {
  return DISCLOSURES.find((d) => d.agreement === agreement);
}
