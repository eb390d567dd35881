import { ServiceError } from 'src/core/errors/service-error';
import type { EnabledAsset, TradingType } from 'src/modules/accounts/entities/account-types';

/** Features that need a regulatory agreement accepted first (see GET /disclosures). */
export const AGREEMENT_FOR_MARGIN = 'margin_agreement';
export const AGREEMENT_FOR_ASSET: Partial<Record<EnabledAsset, string>> = {
  crypto: 'crypto_agreement',
  us_option: 'options_agreement',
};

/** 422 SVC-422-001 when a setting needs an agreement the holder has not accepted. */
export function assertSettingsAllowed(
  settings: { trading_type: TradingType; enabled_assets: readonly EnabledAsset[] },
  accepted: ReadonlySet<string>,
): void {
  if (settings.trading_type === 'margin' && !accepted.has(AGREEMENT_FOR_MARGIN)) {
    throw ServiceError.refused(
      `Margin trading needs the ${AGREEMENT_FOR_MARGIN} accepted first (see GET /v1/disclosures).`,
      'trading_type',
    );
  }
  for (const asset of settings.enabled_assets) {
    const agreement = AGREEMENT_FOR_ASSET[asset];
    if (agreement && !accepted.has(agreement)) {
      throw ServiceError.refused(
        `Enabling ${asset} needs the ${agreement} accepted first (see GET /v1/disclosures).`,
        'enabled_assets',
      );
    }
  }
}

/** Ten digits: nine random ones and a Luhn check digit, so a mistyped number is caught. */
export function newAccountNumber(random: () => number = Math.random): string {
  const body = [1 + Math.floor(random() * 9), ...Array.from({ length: 8 }, () => Math.floor(random() * 10))];
  let sum = 0;
  for (let i = 0; i < body.length; i++) {
    let d = body[body.length - 1 - i];
    if (i % 2 === 0) {
      d *= 2;
      if (d > 9) {
        d -= 9;
      }
    }
    sum += d;
  }
  return `${body.join('')}${(10 - (sum % 10)) % 10}`;
}
