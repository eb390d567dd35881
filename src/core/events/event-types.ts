/** Every event the service emits (spec, Events), with the description shown to partners. */
export const EVENT_TYPES = [
  { name: 'account.created', description: 'New account created' },
  { name: 'account.updated', description: 'Account details changed' },
  { name: 'order.accepted', description: 'Order accepted for execution' },
  { name: 'order.filled', description: 'Order fully filled' },
  { name: 'order.partially_filled', description: 'Order partially filled' },
  { name: 'order.canceled', description: 'Order canceled' },
  { name: 'order.rejected', description: 'Order rejected' },
  { name: 'transfer.deposit.initiated', description: 'Deposit initiated' },
  { name: 'transfer.deposit.completed', description: 'Deposit completed, funds available' },
  { name: 'transfer.deposit.failed', description: 'Deposit failed' },
  { name: 'transfer.deposit.canceled', description: 'Deposit canceled before it was processed' },
  { name: 'transfer.withdrawal.initiated', description: 'Withdrawal initiated' },
  { name: 'transfer.withdrawal.completed', description: 'Withdrawal completed' },
  { name: 'transfer.withdrawal.failed', description: 'Withdrawal failed' },
  { name: 'transfer.withdrawal.canceled', description: 'Withdrawal canceled before it was processed' },
  { name: 'document.approved', description: 'KYC document approved' },
  { name: 'document.rejected', description: 'KYC document rejected' },
  { name: 'document.created', description: 'Trade confirmation or account statement made' },
  { name: 'cash_sweep.interest.paid', description: 'Monthly cash sweep interest paid into the account' },
  {
    name: 'conversion.completed',
    description: 'A currency conversion between an account\u2019s wallets executed',
  },
  {
    name: 'journal.executed',
    description: 'A cash (JNLC) or securities (JNLS) journal between accounts executed',
  },
  { name: 'kyc.verification.approved', description: 'KYC verification of an investor approved' },
  { name: 'corporate_action.announced', description: 'Corporate action announced for an asset' },
  {
    name: 'corporate_action.updated',
    description: 'Terms of an announced corporate action corrected before its processing',
  },
  { name: 'corporate_action.processed', description: 'Corporate action applied to every account' },
  {
    name: 'corporate_action.applied',
    description: 'Corporate action applied to one account: its quantity, cost basis and cash',
  },
] as const;

export type EventName = (typeof EVENT_TYPES)[number]['name'];

export const EVENT_NAMES: readonly EventName[] = EVENT_TYPES.map((t) => t.name);

/**
 * Sent only by `POST /v1/test_helpers/webhooks/{id}/test-event`, to that one endpoint. Not in the
 * subscribable list: no endpoint subscribes to it, `*` included.
 */
export const WEBHOOK_TEST_EVENT = 'webhook.test';
