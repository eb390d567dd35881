import { toAlpha3 } from 'src/core/countries/iso-3166';
import type { AccountAgreementEntity } from 'src/modules/accounts/entities/account-agreement.entity';
import type {
  AccountStatus,
  AccountType,
  CryptoStatus,
  EnabledAsset,
  HolderDisclosures,
  TradingType,
} from 'src/modules/accounts/entities/account-types';
import type {
  AccountAgreementDto,
  AccountContactDto,
  AccountIdentityDto,
  HolderAgreementDto,
} from 'src/modules/accounts/dto/account.dto';
import type { InvestmentAccountEntity } from 'src/modules/accounts/entities/investment-account.entity';

/** The account-style record, field for field as the spec's Investment account table. */
export interface AccountRecord {
  id: string;
  account_number: string;
  status: AccountStatus;
  crypto_status: CryptoStatus;
  currency: string;
  last_equity: string;
  created_at: string;
  contact: AccountContactDto;
  identity: AccountIdentityDto;
  disclosures: HolderDisclosures;
  agreements: AccountAgreementDto[];
  account_type: AccountType;
  trading_type: TradingType;
  trading_configurations: Record<string, unknown> | null;
  enabled_assets: EnabledAsset[];
}

/**
 * Renders an account as the account-style record: uppercase statuses, alpha-3 countries,
 * money as strings. The envelope address's optional `unit` becomes the last street line.
 */
export function toAccountRecord(
  account: InvestmentAccountEntity,
  agreements: AccountAgreementEntity[],
  lastEquity: string,
): AccountRecord {
  const { address, identity, disclosures } = account;
  return {
    id: account.id,
    account_number: account.account_number,
    status: account.status,
    crypto_status: account.crypto_status,
    currency: account.currency,
    last_equity: lastEquity,
    created_at: account.created_at.toISOString(),
    contact: {
      email_address: account.email_address,
      phone_number: account.phone_number,
      street_address: address.unit ? [...address.street, address.unit] : [...address.street],
      local_street_address: null,
      city: address.city,
      state: address.state,
      postal_code: address.postal_code,
      country: toAlpha3(address.country),
    },
    identity: {
      first_name: identity.first_name,
      last_name: identity.last_name,
      date_of_birth: identity.date_of_birth,
      country_of_citizenship: toAlpha3(identity.country_of_citizenship),
      country_of_birth: toAlpha3(identity.country_of_birth),
      party_type: identity.party_type,
      tax_id_type: identity.tax_id_type,
      country_of_tax_residence: toAlpha3(identity.country_of_tax_residence),
      funding_source: [...identity.funding_source],
    },
    disclosures: holderDisclosures(disclosures),
    agreements: agreements.map((a) => ({ ...holderAgreement(a), account_id: a.account_id })),
    account_type: account.account_type,
    trading_type: account.trading_type,
    trading_configurations: account.trading_configurations,
    enabled_assets: [...account.enabled_assets],
  };
}

/** The holder's disclosures as both the account record and the investor show them. */
export function holderDisclosures(disclosures: HolderDisclosures): HolderDisclosures {
  return {
    is_control_person: disclosures.is_control_person,
    is_affiliated_exchange_or_finra: disclosures.is_affiliated_exchange_or_finra,
    is_affiliated_exchange_or_iiroc: disclosures.is_affiliated_exchange_or_iiroc,
    is_politically_exposed: disclosures.is_politically_exposed,
    immediate_family_exposed: disclosures.immediate_family_exposed,
    is_discretionary: disclosures.is_discretionary,
  };
}

/** An accepted agreement as the investor shows it (the account record adds its account_id). */
export function holderAgreement(agreement: AccountAgreementEntity): HolderAgreementDto {
  return {
    agreement: agreement.agreement,
    signed_at: agreement.signed_at.toISOString(),
    ip_address: agreement.ip_address,
    revision: agreement.revision,
  };
}
