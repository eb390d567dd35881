import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { load } from 'js-yaml';
import type { Test } from 'supertest';
import { IdempotencyService } from 'src/core/idempotency/idempotency.service';
import { basic, useTenant, useTestContext } from '../support/app';
import { madeBeforeAll } from '../support/made-before-all';
import { createInvestor, CUSTOMER_AGREEMENT, investorBody, PDF, useTempStorage } from '../investors/fixtures';
import { startWebhookSink } from './support/webhook-sink';

describe('Every state-changing POST stores its idempotent response in its own transaction', () => {
  useTempStorage();
  const ctx = useTestContext();
  const tenant = useTenant(ctx, { products: ['cash_management'] });
  const sink = madeBeforeAll('The webhook sink', () => startWebhookSink({ ctx, creds: tenant.test }));
  afterAll(() => sink.receiver.stop());
  /** Spies on the in-process app's idempotency service; against a deployment only replays are seen. */
  let completedAfterTheFact: jest.SpyInstance | undefined;
  let storedWithin: jest.SpyInstance | undefined;
  beforeAll(() => spyOnIdempotency());

  it('each POST route, replayed, and none stored after the fact', async () => {
    const body = investorBody();
    const investor = await once('createInvestor', () => post('/v1/investors').send(body));
    const path = `/v1/investors/${investor.id}`;
    await once('updateInvestorByPost', () => post(path).send({ metadata: { tier: 'gold' } }));
    await once('uploadDocument', () =>
      post(`${path}/documents`)
        .field('type', 'passport')
        .attach('file', PDF, { filename: 'passport.pdf', contentType: 'application/pdf' }),
    );
    await once('acceptAgreements', () =>
      post(`${path}/agreements`).send({ agreements: [CUSTOMER_AGREEMENT] }),
    );
    expect(await once('submitKyc', () => post(`${path}/kyc`))).toMatchObject({ account_status: 'ACTIVE' });
    const key = await once('createApiKey', () => post(`${path}/api-keys`).send({ name: 'app' }));
    await once('revokeApiKey', () => post(`${path}/api-keys/${key.id}/revoke`));
    const account = `/v1/accounts/${investor.account_id}/actions`;
    await once('suspendAccount', () => post(`${account}/suspend`));
    await once('reactivateAccount', () => post(`${account}/reactivate`));
    await once('closeAccount', () => post(`${account}/close`));

    const other = await createInvestor(ctx, tenant.test);
    await once('testHelperRejectKyc', () => post(`/v1/test_helpers/investors/${other.id}/kyc/reject`));
    await once('testHelperApproveKyc', () => post(`/v1/test_helpers/investors/${other.id}/kyc/approve`));
    await once('setTestPrices', () =>
      post('/v1/test_helpers/prices').send({ symbol: 'AAPL', price: '190.00' }),
    );
    await once('moveTestClock', () => post('/v1/test_helpers/clock').send({ advance_seconds: 60 }));

    const holder = await createInvestor(ctx, tenant.test);
    expect((await post(`/v1/test_helpers/investors/${holder.id}/kyc/approve`)).status).toBe(200);
    const bank = await once('createFundingSource', () =>
      post(`/v1/investors/${holder.id}/funding-sources`).send({
        type: 'bank_account',
        account_holder_name: 'Ada Obi',
        account_number: '000123456789',
        routing_number: '110000000',
        currency: 'USD',
        country: 'US',
      }),
    );
    const funding = (amount: string) => ({
      amount,
      funding_details: { funding_type: 'fiat', bank_account_id: bank.id },
    });
    const wallet = `/v1/wallet/accounts/${holder.account_id}`;
    const deposit = await once('fundAccount', () => post(`${wallet}/funding`).send(funding('100.00')));
    await once('testHelperSettleTransaction', () =>
      post(`/v1/test_helpers/wallet/transactions/${deposit.transaction_id}/settle`),
    );
    const withdrawal = await once('withdrawFromAccount', () =>
      post(`${wallet}/withdrawals`).send(funding('10.00')),
    );
    await once('cancelWalletTransaction', () =>
      post(`${wallet}/transactions/${withdrawal.transaction_id}/cancel`),
    );
    const viaInvestor = { amount: '5.00', funding_source_id: bank.id };
    const envelope = await once('createDeposit', () =>
      post(`/v1/investors/${holder.id}/deposits`).send(viaInvestor),
    );
    await once('testHelperFailTransaction', () =>
      post(`/v1/test_helpers/wallet/transactions/${envelope.transaction_id}/fail`).send({}),
    );
    await once('createWithdrawal', () => post(`/v1/investors/${holder.id}/withdrawals`).send(viaInvestor));
    const order = await once('placeOrder', () =>
      post(`/v1/investors/${holder.id}/orders`).send({
        symbol: 'AAPL',
        side: 'buy',
        type: 'limit',
        time_in_force: 'gtc',
        quantity: '1',
        limit_price: '1.00',
      }),
    );
    await once('cancelOrder', () => post(`/v1/investors/${holder.id}/orders/${order.id}/cancel`));

    const plan = `/v1/wealth/accounts/${holder.account_id}/financial-plan`;
    const created = await ctx.http().put(plan).set('Authorization', basic(tenant.test)).send({});
    expect(created.status).toBe(201);
    const withGoal = await once('addFinancialPlanGoal', () =>
      post(`${plan}/goals`).send({
        name: 'Retirement',
        goal_type: 'retirement',
        target_amount: '100000.00',
        target_date: '2060-01-31',
      }),
    );
    expect(withGoal).toMatchObject({ version: 2, goals: [{ name: 'Retirement' }] });
    await once('archiveFinancialPlan', () => post(`${plan}/archive`));

    const webhook = await once('createWebhook', () =>
      post('/v1/webhooks').send({ name: 'routes', url: sink.url, eventTypeNames: ['order.*'] }),
    );
    await once('rotateWebhookSecret', () => post(`/v1/webhooks/${webhook.id}/rotate-secret`));
    const event = await once('sendWebhookTestEvent', () =>
      post(`/v1/test_helpers/webhooks/${webhook.id}/test-event`),
    );
    await sink.receiver.waitFor([event.id]);
    await once('resendEvent', () => post(`/v1/events/${event.id}/resend`).send({ endpoint: webhook.id }));

    const tier = await once('createAprTier', () =>
      post('/v1/cash-management/apr-tiers').send({ name: 'routes', account_rate_bps: 100 }),
    );
    await once('retireAprTier', () => post(`/v1/cash-management/apr-tiers/${tier.id}/retire`));
    await once('testHelperAccrueCashSweep', () =>
      post('/v1/test_helpers/cash-sweep/accrue').send({ through: '2026-01-01' }),
    );
    await once('createWebhookSink', () => post('/v1/test_helpers/webhook-sinks').send({ status_code: 200 }));

    const action = await once('testHelperAnnounceCorporateAction', () =>
      post('/v1/test_helpers/corporate-actions').send({
        type: 'cash_dividend',
        symbol: 'AAPL',
        cash_rate: '0.24',
        ex_date: '2030-01-02',
        payable_date: '2030-01-09',
      }),
    );
    await once('testHelperCancelCorporateAction', () =>
      post(`/v1/test_helpers/corporate-actions/${action.id}/cancel`),
    );

    await once('setTestFxRate', () =>
      post('/v1/test_helpers/fx-rates').send({ from_currency: 'USD', to_currency: 'NGN', rate: '1500' }),
    );
    await once('createFxQuote', () =>
      post('/v1/fx/quotes').send({ from_currency: 'USD', to_currency: 'NGN', amount: '5.00' }),
    );
    await once('createConversion', () =>
      post(`${wallet}/conversions`).send({ from_currency: 'USD', to_currency: 'NGN', amount: '5.00' }),
    );
    const firm = (await ctx.http().get('/v1/firm-account').set('Authorization', basic(tenant.test))).body
      .account_id as string;
    const firmBank = await once('createFirmFundingSource', () =>
      post('/v1/firm-account/funding-sources').send({
        type: 'bank_account',
        account_holder_name: 'Partner',
        account_number: '000123456789',
        routing_number: '110000000',
        currency: 'USD',
        country: 'US',
      }),
    );
    const firmDeposit = await post(`/v1/wallet/accounts/${firm}/funding`).send({
      amount: '100.00',
      funding_details: { funding_type: 'fiat', bank_account_id: firmBank.id },
    });
    await post(`/v1/test_helpers/wallet/transactions/${firmDeposit.body.transaction_id}/settle`);
    await once('placeFirmOrder', () =>
      post('/v1/firm-account/orders').send({
        symbol: 'AAPL',
        side: 'buy',
        type: 'limit',
        time_in_force: 'gtc',
        quantity: '1',
        limit_price: '1.00',
      }),
    );
    await once('createJournal', () =>
      post('/v1/journals').send({
        entry_type: 'JNLC',
        from_account_id: firm,
        to_account_id: holder.account_id,
        amount: '1.00',
        currency: 'USD',
      }),
    );
    await once('createJournalBatch', () =>
      post('/v1/journals/batch').send({
        from_account_id: firm,
        currency: 'USD',
        entries: [{ to_account_id: holder.account_id, amount: '1.00' }],
      }),
    );

    if (completedAfterTheFact) {
      expect(completedAfterTheFact).not.toHaveBeenCalled();
    }
    // A new POST route must be listed here, and so shown to commit through IdempotentTransaction.
    expect([...exercised].sort()).toEqual(postOperations());
  });

  const post = (path: string) => ctx.http().post(path).set('Authorization', basic(tenant.test));

  /**
   * Sends the request with an Idempotency-Key, then again: the repeat replays the stored response
   * (same status and body), and the response was stored inside the effect's transaction.
   */
  async function once(operationId: string, request: () => Test): Promise<Record<string, any>> {
    const key = `route-${operationId}`;
    const calls = storedWithin?.mock.calls.length ?? 0;
    const first = await request().set('Idempotency-Key', key);
    expect([operationId, first.status]).toEqual([operationId, expect.any(Number)]);
    expect(first.status < 300 ? 'ok' : `${first.status} ${JSON.stringify(first.body)}`).toBe('ok');
    if (storedWithin) {
      expect(storedWithin.mock.calls.length).toBe(calls + 1);
    }
    const again = await request().set('Idempotency-Key', key);
    expect([operationId, again.status, again.headers['idempotent-replayed'], again.body]).toEqual([
      operationId,
      first.status,
      'true',
      first.body,
    ]);
    exercised.push(operationId);
    return first.body as Record<string, any>;
  }

  /** The operationIds once exercised. */
  const exercised: string[] = [];

  function spyOnIdempotency(): void {
    const idempotency = ctx.app?.get(IdempotencyService);
    if (idempotency) {
      completedAfterTheFact = jest.spyOn(idempotency, 'complete');
      storedWithin = jest.spyOn(idempotency, 'completeInto');
    }
  }
});

/**
 * operationIds of every partner POST in the committed OpenAPI document. The sandbox admin API
 * (/v1/sandbox/*) is an operator API with no tenant to scope keys by: it takes no Idempotency-Key.
 */
function postOperations(): string[] {
  const spec = load(readFileSync(join(__dirname, '..', '..', 'openapi', 'openapi.yaml'), 'utf8')) as {
    paths: Record<string, Record<string, { operationId: string }>>;
  };
  return Object.entries(spec.paths)
    .flatMap(([path, ops]) => (ops.post && !path.startsWith('/v1/sandbox/') ? [ops.post.operationId] : []))
    .sort();
}
