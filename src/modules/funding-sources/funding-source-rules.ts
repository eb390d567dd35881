import { isAlpha2 } from 'src/core/countries/iso-3166';
import { ServiceError } from 'src/core/errors/service-error';
import { isSupportedCurrency } from 'src/core/money/currencies';
import type { CreateFundingSourceDto } from 'src/modules/funding-sources/dto/funding-source.dto';

/** Test bank account numbers (docs/decisions.md, Funding sources, deposits and withdrawals): this one fails its transfers; any other settles. */
export const FAILING_TEST_ACCOUNT_NUMBER = '000111111116';

/** ABA routing number check digit: 3-7-1 weights over the nine digits sum to a multiple of 10. */
export function isAbaRoutingNumber(value: string): boolean {
  if (!/^\d{9}$/.test(value)) {
    return false;
  }
  const weights = [3, 7, 1, 3, 7, 1, 3, 7, 1];
  return [...value].reduce((sum, digit, i) => sum + Number(digit) * weights[i], 0) % 10 === 0;
}

/** The rules between fields: a US account has a routing number, any other a bank code; a known currency. */
export function checkFundingSource(body: CreateFundingSourceDto): void {
  if (!isAlpha2(body.country)) {
    throw ServiceError.invalid(
      'country',
      `Unknown country '${body.country}': send an ISO 3166-1 alpha-2 code.`,
    );
  }
  if (!isSupportedCurrency(body.currency)) {
    throw ServiceError.invalid('currency', `Transfers in ${body.currency} are not supported.`);
  }
  if (body.country === 'US') {
    if (body.routing_number === undefined) {
      throw ServiceError.missing('routing_number', 'A US bank account needs its routing_number.');
    }
    if (!isAbaRoutingNumber(body.routing_number)) {
      throw ServiceError.invalid('routing_number', 'routing_number fails the ABA check digit.');
    }
    if (body.bank_code !== undefined) {
      throw ServiceError.invalid('bank_code', 'A US bank account takes a routing_number, not a bank_code.');
    }
    return;
  }
  if (body.bank_code === undefined) {
    throw ServiceError.missing('bank_code', 'A bank account outside the US needs its bank_code.');
  }
  if (body.routing_number !== undefined) {
    throw ServiceError.invalid('routing_number', 'routing_number is for US bank accounts; send bank_code.');
  }
}
