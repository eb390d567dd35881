import { toAlpha3 } from 'src/core/countries/iso-3166';
import { ServiceError } from 'src/core/errors/service-error';
import type { AccountProfile } from 'src/modules/accounts/account-lifecycle.service';
import {
  ENABLED_ASSETS,
  EnabledAsset,
  FUNDING_SOURCES,
  HolderAddress,
  HolderDisclosures,
  HolderIdentity,
  TradingType,
} from 'src/modules/accounts/entities/account-types';
import type { InvestmentAccountEntity } from 'src/modules/accounts/entities/investment-account.entity';
import type { CreateInvestorDto } from 'src/modules/investors/dto/create-investor.dto';
import type { AddressInputDto } from 'src/modules/investors/dto/investor-input.dto';
import type { UpdateInvestorDto } from 'src/modules/investors/dto/update-investor.dto';
import { assertItems, oneOf, textOfLength } from 'src/modules/investors/validation/array-items';
import {
  normalizeTaxId,
  taxIdCountry,
  taxIdProblem,
  TaxIdType,
} from 'src/modules/investors/validation/tax-ids';

const US_STATE = /^[A-Z]{2}$/;
const US_ZIP = /^\d{5}(-\d{4})?$/;

/** The stored address from validated input; US addresses need a state code and a ZIP code. */
function toAddress(input: AddressInputDto, param: string): HolderAddress {
  assertItems(input.street, `${param}.street`, textOfLength(1, 100));
  const address: HolderAddress = {
    street: input.street.map((line) => line.trim()),
    unit: input.unit?.trim() ?? null,
    city: input.city.trim(),
    state: input.state?.trim() ?? null,
    postal_code: input.postal_code?.trim() ?? null,
    country: input.country,
  };
  if (address.country === 'US') {
    if (address.state === null) {
      throw ServiceError.missing(`${param}.state`, `Missing required field ${param}.state for a US address.`);
    }
    if (!US_STATE.test(address.state)) {
      throw ServiceError.invalid(
        `${param}.state`,
        `Invalid ${param}.state: use the two-letter code, such as CA.`,
      );
    }
    if (address.postal_code === null) {
      throw ServiceError.missing(
        `${param}.postal_code`,
        `Missing required field ${param}.postal_code for a US address.`,
      );
    }
    if (!US_ZIP.test(address.postal_code)) {
      throw ServiceError.invalid(
        `${param}.postal_code`,
        `Invalid ${param}.postal_code: use 12345 or 12345-6789.`,
      );
    }
  }
  return address;
}

/** Rules between identity fields: the tax id's scheme, its issuing country, the funding sources. */
function checkIdentity(identity: HolderIdentity, taxId: string | null): void {
  assertItems(identity.funding_source, 'identity.funding_source', oneOf(FUNDING_SOURCES), { unique: true });
  const type = identity.tax_id_type as TaxIdType;
  const country = taxIdCountry(type);
  if (country && country !== toAlpha3(identity.country_of_tax_residence)) {
    throw ServiceError.invalid(
      'identity.tax_id_type',
      `Invalid identity.tax_id_type: ${type} is issued in ${country}, but country_of_tax_residence is ` +
        `${identity.country_of_tax_residence}.`,
    );
  }
  if (taxId === null && type !== 'NOT_SPECIFIED') {
    throw ServiceError.missing('identity.tax_id', `Missing required field identity.tax_id for ${type}.`);
  }
  const problem = taxId === null ? undefined : taxIdProblem(type, taxId);
  if (problem) {
    throw ServiceError.invalid('identity.tax_id', `Invalid identity.tax_id: ${problem}.`);
  }
}

function checkSettings(enabledAssets: string[] | undefined): EnabledAsset[] | undefined {
  assertItems(enabledAssets, 'enabled_assets', oneOf(ENABLED_ASSETS), { unique: true });
  return enabledAssets as EnabledAsset[] | undefined;
}

/** The account profile of a new investor, fully checked. */
export function profileFromCreate(dto: CreateInvestorDto): AccountProfile {
  const { identity: id, contact, disclosures: d } = dto;
  const identity: HolderIdentity = {
    first_name: id.first_name.trim(),
    middle_name: id.middle_name?.trim() ?? null,
    last_name: id.last_name.trim(),
    date_of_birth: id.date_of_birth,
    country_of_citizenship: id.country_of_citizenship,
    country_of_birth: id.country_of_birth,
    party_type: 'natural_person',
    tax_id_type: id.tax_id_type,
    country_of_tax_residence: id.country_of_tax_residence,
    funding_source: [...id.funding_source],
  };
  const taxId = id.tax_id === undefined ? null : normalizeTaxId(id.tax_id);
  checkIdentity(identity, taxId);
  return {
    email_address: contact.email_address.trim().toLowerCase(),
    phone_number: contact.phone_number,
    address: toAddress(contact.address, 'contact.address'),
    identity,
    tax_id: taxId,
    disclosures: {
      is_control_person: d.is_control_person,
      is_affiliated_exchange_or_finra: d.is_affiliated_exchange_or_finra,
      is_affiliated_exchange_or_iiroc: d.is_affiliated_exchange_or_iiroc ?? null,
      is_politically_exposed: d.is_politically_exposed,
      immediate_family_exposed: d.immediate_family_exposed,
      is_discretionary: d.is_discretionary ?? null,
    },
    currency: dto.currency ?? 'USD',
    trading_type: (dto.trading_type as TradingType | undefined) ?? 'cash',
    enabled_assets: checkSettings(dto.enabled_assets) ?? ['us_equity', 'etf'],
  };
}

/**
 * Merges a patch into the current values: undefined leaves a field, null clears an optional
 * one, and null on a required field is refused naming it.
 */
function merge<T extends object>(
  current: T,
  patch: object | undefined,
  nullable: string[],
  param: string,
): T {
  const merged: Record<string, unknown> = { ...(current as Record<string, unknown>) };
  for (const [key, value] of Object.entries(patch ?? {})) {
    if (value === undefined) {
      continue;
    }
    if (value === null && !nullable.includes(key)) {
      throw ServiceError.invalid(`${param}.${key}`, `Invalid ${param}.${key}: it cannot be null.`);
    }
    merged[key] = typeof value === 'string' ? value.trim() : value;
  }
  return merged as T;
}

/** The profile change a PATCH asks for, checked against the merged result. */
export function profileChange(
  account: InvestmentAccountEntity,
  dto: UpdateInvestorDto,
): Partial<AccountProfile> {
  const change: Partial<AccountProfile> = {};
  if (dto.identity) {
    const { tax_id: taxIdInput, ...identityPatch } = dto.identity;
    const identity = merge<HolderIdentity>(account.identity, identityPatch, ['middle_name'], 'identity');
    if (taxIdInput === null) {
      throw ServiceError.invalid('identity.tax_id', 'Invalid identity.tax_id: it cannot be null.');
    }
    const taxId = taxIdInput === undefined ? account.tax_id : normalizeTaxId(taxIdInput);
    checkIdentity(identity, taxId);
    change.identity = identity;
    change.tax_id = taxId;
  }
  if (dto.contact) {
    const { address, ...contactPatch } = dto.contact;
    const contact = merge(
      { email_address: account.email_address, phone_number: account.phone_number },
      contactPatch,
      [],
      'contact',
    );
    change.email_address = contact.email_address.toLowerCase();
    change.phone_number = contact.phone_number;
    if (address) {
      change.address = toAddress(address, 'contact.address');
    }
  }
  if (dto.disclosures) {
    change.disclosures = merge<HolderDisclosures>(
      account.disclosures,
      dto.disclosures,
      ['is_affiliated_exchange_or_iiroc', 'is_discretionary'],
      'disclosures',
    );
  }
  if (dto.currency) {
    change.currency = dto.currency;
  }
  if (dto.trading_type) {
    change.trading_type = dto.trading_type as TradingType;
  }
  if (dto.enabled_assets) {
    change.enabled_assets = checkSettings(dto.enabled_assets);
  }
  return change;
}
