import { createInvestor } from '../investors/fixtures';
import type { TestContext, TestCredentials } from './app';

/**
 * The states specs start from, reached through the API (so they hold against E2E_BASE_URL too):
 * an ACTIVE investor, a linked bank account, settled cash. Feature supports (wallet, trading)
 * build on these rather than copying them. The clock's states are in ./clock (freezeClock,
 * advanceClock), the support CLI's runner in ./cli (runCli).
 */

/** Test bank account numbers (docs/decisions.md, Funding sources, deposits and withdrawals): the first settles, the second fails. */
export const SETTLING_ACCOUNT = '000123456789';
export const FAILING_ACCOUNT = '000111111116';

/** An investor whose account is ACTIVE (KYC approved by the test helper). */
export async function activeInvestor(
  ctx: TestContext,
  creds: TestCredentials,
  overrides: Record<string, unknown> = {},
): Promise<{ id: string; account_id: string }> {
  const investor = await createInvestor(ctx, creds, overrides);
  const approved = await ctx.as(creds).post(`/v1/test_helpers/investors/${investor.id}/kyc/approve`);
  if (approved.status !== 200) {
    throw new Error(`KYC approval failed: ${approved.status} ${JSON.stringify(approved.body)}`);
  }
  return { id: investor.id as string, account_id: investor.account_id as string };
}

/** Links a US bank account (the settling test number unless given). */
export async function linkBankAccount(
  ctx: TestContext,
  creds: TestCredentials,
  investorId: string,
  overrides: Record<string, unknown> = {},
): Promise<{ id: string; currency: string }> {
  const res = await ctx.as(creds).post(`/v1/investors/${investorId}/funding-sources`, {
    type: 'bank_account',
    account_holder_name: 'Ada Obi',
    account_number: SETTLING_ACCOUNT,
    routing_number: '110000000',
    currency: 'USD',
    country: 'US',
    ...overrides,
  });
  if (res.status !== 201) {
    throw new Error(`funding source failed: ${res.status} ${JSON.stringify(res.body)}`);
  }
  return res.body as { id: string; currency: string };
}

/** The spec's funding body. */
export function fundingBody(bankAccountId: string, amount: string, extra: Record<string, unknown> = {}) {
  return {
    amount,
    funding_details: {
      funding_type: 'fiat',
      fiat_currency: 'USD',
      bank_account_id: bankAccountId,
      method: 'ach',
    },
    ...extra,
  };
}

/**
 * Deposits `amount` of the bank account's currency into an account and settles it at once (the
 * settle helper); answers the deposit's transaction id. ACH for USD, the currency's default method
 * otherwise.
 */
export async function depositSettled(
  ctx: TestContext,
  creds: TestCredentials,
  accountId: string,
  bank: { id: string; currency: string },
  amount: string,
): Promise<string> {
  const client = ctx.as(creds);
  const body =
    bank.currency === 'USD'
      ? fundingBody(bank.id, amount)
      : {
          amount,
          funding_details: { funding_type: 'fiat', fiat_currency: bank.currency, bank_account_id: bank.id },
        };
  const deposit = await client.post(`/v1/wallet/accounts/${accountId}/funding`, body);
  if (deposit.status !== 201) {
    throw new Error(`deposit failed: ${deposit.status} ${JSON.stringify(deposit.body)}`);
  }
  const settled = await client.post(
    `/v1/test_helpers/wallet/transactions/${deposit.body.transaction_id}/settle`,
  );
  if (settled.status !== 200) {
    throw new Error(`settle failed: ${settled.status} ${JSON.stringify(settled.body)}`);
  }
  return deposit.body.transaction_id as string;
}

/**
 * An ACTIVE investor (with `overrides` on the investor body) holding a linked bank account and
 * `amount` of settled USD cash.
 */
export async function fundedAccount(
  ctx: TestContext,
  creds: TestCredentials,
  amount: string,
  overrides: Record<string, unknown> = {},
) {
  const investor = await activeInvestor(ctx, creds, overrides);
  const bank = await linkBankAccount(ctx, creds, investor.id);
  await depositSettled(ctx, creds, investor.account_id, bank, amount);
  return { investor, bank };
}
