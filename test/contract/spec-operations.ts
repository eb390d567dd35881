import { ASSET_CLASSES, ORDER_STATUSES } from './spec-values';
import type { SpecOperation, SpecParameter } from './spec-types';

const ACCOUNT_ID: SpecParameter = { in: 'path', type: 'uuid', required: true };
/** Spec, Limits: list bounds and defaults, one place for the operations below. */
export const LIMITS = {
  assetSearchA: { minimum: 1, maximum: 100, default: 50 },
  assetSearchB: { minimum: 1, maximum: 100, default: 10 },
  orderList: { minimum: 1, maximum: 100, default: 50 },
  orderListOffset: { minimum: 0, default: 0 },
  interestHistory: { minimum: 1, maximum: 10000 },
} as const;

export const OPERATIONS: SpecOperation[] = [
  {
    title: 'Assets, description A',
    method: 'get',
    path: '/v1/assets/search',
    parameters: {
      q: { in: 'query', type: 'string' },
      status: { in: 'query', type: 'string', enum: ['active', 'inactive'], default: 'active' },
      class: { in: 'query', type: 'string', enum: ASSET_CLASSES },
      country: { in: 'query', type: 'string' },
      limit: { in: 'query', type: 'integer', ...LIMITS.assetSearchA },
    },
    response: { listOf: 'AssetDto' },
  },
  {
    title: 'Assets, description B',
    method: 'get',
    path: '/legacy/v1/assets/search',
    parameters: {
      q: { in: 'query', type: 'string', required: true },
      status: { in: 'query', type: 'string', values: ['active'] },
      asset_class: { in: 'query', type: 'string', enum: ['us_equity', 'crypto'] },
      market: { in: 'query', type: 'string' },
      limit: { in: 'query', type: 'integer', ...LIMITS.assetSearchB },
    },
    response: { schema: 'LegacyAssetSearchResultDto' },
  },
  {
    title: 'API keys, revoke',
    method: 'post',
    path: '/v1/investors/{investor_id}/api-keys/{api_key_id}/revoke',
    parameters: {
      investor_id: { in: 'path', type: 'string', required: true },
      api_key_id: { in: 'path', type: 'string', required: true },
    },
    response: { schema: 'ApiKeyDto' },
  },
  {
    title: 'Trading, order list',
    method: 'get',
    path: '/v1/trading/accounts/{account_id}/orders',
    parameters: {
      account_id: ACCOUNT_ID,
      status: { in: 'query', type: 'string', enum: ORDER_STATUSES },
      symbol: { in: 'query', type: 'string' },
      side: { in: 'query', type: 'string', enum: ['buy', 'sell'] },
      limit: { in: 'query', type: 'integer', ...LIMITS.orderList },
      offset: { in: 'query', type: 'integer', ...LIMITS.orderListOffset },
    },
    response: { arrayOf: 'AccountOrderDto' },
  },
  {
    title: 'Trading, positions',
    method: 'get',
    path: '/v1/trading/accounts/{account_id}/positions',
    parameters: { account_id: ACCOUNT_ID },
    response: { arrayOf: 'PositionDto' },
  },
  {
    title: 'Wallet, deposit',
    method: 'post',
    path: '/v1/wallet/accounts/{account_id}/funding',
    parameters: { account_id: ACCOUNT_ID },
    body: {
      schema: 'WalletTransferRequestDto',
      fields: {
        amount: { type: 'string', required: true },
        funding_details: { type: 'object', required: true },
        description: { type: 'string' },
        external_reference_id: { type: 'string' },
      },
    },
    response: { schema: 'WalletTransactionDto' },
  },
  {
    title: 'Wealth, financial plan',
    method: 'get',
    path: '/v1/wealth/accounts/{account_id}/financial-plan',
    parameters: {
      account_id: ACCOUNT_ID,
      include_projections: { in: 'query', type: 'boolean', default: false },
    },
    response: { schema: 'FinancialPlanDto' },
  },
  {
    title: 'Accounts',
    method: 'get',
    path: '/v1/accounts',
    parameters: {},
    response: { arrayOf: 'AccountDto' },
  },
  {
    title: 'Cash sweep, interest history',
    method: 'get',
    path: '/v1/investors/{investor_id}/cash-sweep/interest',
    parameters: {
      investor_id: { in: 'path', type: 'string', required: true },
      date: { in: 'query', type: 'date' },
      after: { in: 'query', type: 'date' },
      before: { in: 'query', type: 'date' },
      page_size: { in: 'query', type: 'integer', ...LIMITS.interestHistory },
      page_token: { in: 'query', type: 'string' },
    },
    response: { listOf: 'InterestHistoryEntryDto' },
  },
  { title: 'Webhooks, event types', method: 'get', path: '/v1/webhooks/event-types', parameters: {} },
  { title: 'Webhooks, register', method: 'post', path: '/v1/webhooks', parameters: {} },
  { title: 'Webhooks, list', method: 'get', path: '/v1/webhooks', parameters: {} },
  {
    title: 'Webhooks, update',
    method: 'patch',
    path: '/v1/webhooks/{webhook_id}',
    parameters: { webhook_id: { in: 'path', type: 'string', required: true } },
  },
  {
    title: 'Webhooks, delete',
    method: 'delete',
    path: '/v1/webhooks/{webhook_id}',
    parameters: { webhook_id: { in: 'path', type: 'string', required: true } },
  },
];

/** Spec, Authentication: HTTP Basic (key and secret), and a bearer JWT from an identity provider. */
export const SECURITY_SCHEMES = {
  basic: { type: 'http', scheme: 'basic' },
  bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
} as const;
