/** Vocabulary of the investment account record (spec, Investment account). */
export const ACCOUNT_STATUSES = ['SUBMITTED', 'PENDING_APPROVAL', 'ACTIVE', 'SUSPENDED', 'CLOSED'] as const;
export type AccountStatus = (typeof ACCOUNT_STATUSES)[number];

export const CRYPTO_STATUSES = ['ACTIVE', 'INACTIVE', 'SUSPENDED'] as const;
export type CryptoStatus = (typeof CRYPTO_STATUSES)[number];

export const ACCOUNT_TYPES = ['trading', 'individual', 'joint', 'ira', 'corporate'] as const;
/** An investor's account type, or `firm`: the tenant's own account (no investor). */
export type AccountType = (typeof ACCOUNT_TYPES)[number] | 'firm';

export const TRADING_TYPES = ['cash', 'margin'] as const;
export type TradingType = (typeof TRADING_TYPES)[number];

export const ENABLED_ASSETS = ['us_equity', 'us_option', 'crypto', 'bonds', 'etf', 'mutual_funds'] as const;
export type EnabledAsset = (typeof ENABLED_ASSETS)[number];

/** State of the account application's identity verification (KYC). */
export const KYC_STATUSES = ['not_submitted', 'in_review', 'approved', 'rejected'] as const;
export type KycStatus = (typeof KYC_STATUSES)[number];

export const PARTY_TYPES = ['natural_person'] as const;

export const FUNDING_SOURCES = [
  'employment_income',
  'investments',
  'inheritance',
  'business_income',
  'savings',
  'family',
] as const;

/** Address of the account holder, stored with ISO 3166-1 alpha-2 country codes. */
export interface HolderAddress {
  street: string[];
  unit: string | null;
  city: string;
  state: string | null;
  postal_code: string | null;
  country: string;
}

/** Identity of the account holder (alpha-2 countries); the tax id is kept apart, never rendered. */
export interface HolderIdentity {
  first_name: string;
  middle_name: string | null;
  last_name: string;
  date_of_birth: string;
  country_of_citizenship: string;
  country_of_birth: string;
  party_type: 'natural_person';
  tax_id_type: string;
  country_of_tax_residence: string;
  funding_source: string[];
}

export interface HolderDisclosures {
  is_control_person: boolean;
  is_affiliated_exchange_or_finra: boolean;
  is_affiliated_exchange_or_iiroc: boolean | null;
  is_politically_exposed: boolean;
  immediate_family_exposed: boolean;
  is_discretionary: boolean | null;
}

/** One regulatory agreement accepted by the holder. */
export interface AgreementAcceptance {
  agreement: string;
  revision: string;
  signed_at: Date;
  ip_address: string;
}
