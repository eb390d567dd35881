export { createClient, type InvestmentServiceClient } from './client.js';
export {
  InvestmentServiceError,
  WebhookVerificationError,
  type ErrorEnvelope,
  type LegacyErrorBody,
} from './errors.js';
export { type EventRecord, type StreamOptions } from './events.js';
export { type GetPath, type ListItem, type PaginateOptions } from './paginate.js';
export { type ClientConfig, type Credentials, type RetryOptions } from './transport.js';
export { signWebhook, verifyWebhook, type VerifyWebhookInput } from './webhooks.js';
export type { components, operations, paths } from './generated/openapi.js';
