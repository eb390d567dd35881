import { toResource } from 'src/core/http/envelope';
import { holderAgreement, holderDisclosures } from 'src/modules/accounts/account-record';
import type { AccountAgreementEntity } from 'src/modules/accounts/entities/account-agreement.entity';
import type { InvestmentAccountEntity } from 'src/modules/accounts/entities/investment-account.entity';
import type { KycSummaryDto } from 'src/modules/compliance/dto/kyc-verification.dto';
import type { InvestorDto } from 'src/modules/investors/dto/investor.dto';
import type { InvestorEntity } from 'src/modules/investors/entities/investor.entity';
import { investorStatus } from 'src/modules/investors/investor-status';
import { maskTaxId } from 'src/modules/investors/validation/tax-ids';

/** The envelope-style investor: its own keys plus its account's holder profile (alpha-2 countries). */
export function toInvestorResource(
  investor: InvestorEntity,
  account: InvestmentAccountEntity,
  agreements: AccountAgreementEntity[],
  kyc: KycSummaryDto,
): InvestorDto {
  const { identity, address, disclosures } = account;
  return toResource(
    'investor',
    {
      id: investor.id,
      created_at: investor.created_at,
      livemode: investor.livemode,
      metadata: investor.metadata,
    },
    {
      status: investorStatus(account),
      account_id: account.id,
      account_number: account.account_number,
      identity: {
        first_name: identity.first_name,
        middle_name: identity.middle_name,
        last_name: identity.last_name,
        date_of_birth: identity.date_of_birth,
        country_of_citizenship: identity.country_of_citizenship,
        country_of_birth: identity.country_of_birth,
        party_type: identity.party_type,
        tax_id_type: identity.tax_id_type,
        tax_id: maskTaxId(account.tax_id_last4),
        country_of_tax_residence: identity.country_of_tax_residence,
        funding_source: [...identity.funding_source],
      },
      contact: {
        email_address: account.email_address,
        phone_number: account.phone_number,
        address: {
          street: [...address.street],
          unit: address.unit,
          city: address.city,
          state: address.state,
          postal_code: address.postal_code,
          country: address.country,
        },
      },
      disclosures: holderDisclosures(disclosures),
      agreements: agreements.map(holderAgreement),
      currency: account.currency,
      trading_type: account.trading_type,
      enabled_assets: [...account.enabled_assets],
      kyc,
    },
  ) as InvestorDto;
}
