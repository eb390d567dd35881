/** An ACTIVE investor with a linked bank account and settled cash, made through the API. */
export interface FundedInvestor {
  investorId: string;
  accountId: string;
  bankAccountId: string;
}

function investorBody(i: number): object {
  return {
    identity: {
      first_name: 'Bench',
      last_name: `Scale ${String.fromCharCode(65 + (i % 26))}`,
      date_of_birth: '1985-01-01',
      country_of_citizenship: 'US',
      country_of_birth: 'US',
      tax_id_type: 'USA_SSN',
      tax_id: '123-45-6789',
      country_of_tax_residence: 'US',
      funding_source: ['employment_income'],
    },
    contact: {
      email_address: `scale${i}@example.com`,
      phone_number: '+14155550123',
      address: { street: ['1 Main St'], city: 'San Mateo', state: 'CA', postal_code: '94401', country: 'US' },
    },
    disclosures: {
      is_control_person: false,
      is_affiliated_exchange_or_finra: false,
      is_politically_exposed: false,
      immediate_family_exposed: false,
    },
  };
}

/** `count` investors created, KYC approved and with a bank account linked (no cash yet), through the API. */
export async function linkedInvestors(
  port: number,
  authorization: string,
  count: number,
): Promise<FundedInvestor[]> {
  const call = benchCall(port, authorization);
  const investors: FundedInvestor[] = [];
  for (let i = 0; i < count; i++) {
    const investor = await call('/v1/investors', investorBody(i));
    await call(`/v1/test_helpers/investors/${investor.id}/kyc/approve`);
    const bank = await call(`/v1/investors/${investor.id}/funding-sources`, {
      type: 'bank_account',
      account_holder_name: 'Bench Scale',
      account_number: '000123456789',
      routing_number: '110000000',
      currency: 'USD',
      country: 'US',
    });
    investors.push({ investorId: investor.id, accountId: investor.account_id, bankAccountId: bank.id });
  }
  return investors;
}

/**
 * `count` investors as bench/orders and bench/scale make them: linked as above, then 1,000,000 USD
 * deposited and settled (test helper), so each can both fund and buy.
 */
export async function fundedInvestors(
  port: number,
  authorization: string,
  count: number,
): Promise<FundedInvestor[]> {
  const call = benchCall(port, authorization);
  const investors = await linkedInvestors(port, authorization, count);
  for (const investor of investors) {
    const deposit = await call(
      `/v1/wallet/accounts/${investor.accountId}/funding`,
      depositBody(investor.bankAccountId, '1000000.00'),
    );
    await call(`/v1/test_helpers/wallet/transactions/${deposit.transaction_id}/settle`);
  }
  return investors;
}

/** POSTs to the bench's service as its partner; a refused call ends the bench. */
function benchCall(port: number, authorization: string) {
  return async (path: string, body?: object): Promise<Record<string, string>> => {
    const res = await fetch(`http://127.0.0.1:${port}${path}`, {
      method: 'POST',
      headers: { authorization, 'content-type': 'application/json' },
      body: JSON.stringify(body ?? {}),
    });
    if (res.status >= 300) {
      throw new Error(`${path}: ${res.status} ${await res.text()}`);
    }
    return (await res.json()) as Record<string, string>;
  };
}

/** The body of an ACH deposit from `bankAccountId` (as bench/transfers sends). */
export function depositBody(bankAccountId: string, amount = '25.00'): object {
  return {
    amount,
    funding_details: {
      funding_type: 'fiat',
      fiat_currency: 'USD',
      bank_account_id: bankAccountId,
      method: 'ach',
    },
    description: 'bench deposit',
  };
}

/** A resting gtc limit buy (as bench/orders sends): the whole placement path without a fill. */
export const RESTING_BUY = JSON.stringify({
  symbol: 'AAPL',
  side: 'buy',
  type: 'limit',
  time_in_force: 'gtc',
  quantity: '1',
  limit_price: '1.00',
});
