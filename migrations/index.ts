import { Foundation1763780000000 } from './1763780000000-foundation';
import { Webhooks1763790000000 } from './1763790000000-webhooks';
import { Investors1763800000000 } from './1763800000000-investors';
import { Assets1763810000000 } from './1763810000000-assets';
import { AssetReferenceData1763810000001 } from './1763810000001-asset-reference-data';
import { IdempotencyLeases1763820000000 } from './1763820000000-idempotency-leases';
import { EncryptTaxIds1763831000000 } from './1763831000000-encrypt-tax-ids';
import { SealIdempotentResponses1763831000001 } from './1763831000001-seal-idempotent-responses';
import { ClockAndScheduler1763850000000 } from './1763850000000-clock-and-scheduler';
import { Ledger1763850000001 } from './1763850000001-ledger';
import { Transfers1763850100000 } from './1763850100000-transfers';
import { AssetSearchTerms1763900000000 } from './1763900000000-asset-search-terms';
import { AssetCatalogueNotifications1763965000000 } from './1763965000000-asset-catalogue-notifications';
import { Trading1763920000000 } from './1763920000000-trading';
import { Wealth1763940000000 } from './1763940000000-wealth';
import { CashSweep1763930000000 } from './1763930000000-cash-sweep';
import { RequestLogs1763950000000 } from './1763950000000-request-logs';
import { WebhookSinks1763910000000 } from './1763910000000-webhook-sinks';
import { DropUnusedHoldIndexes1763970000000 } from './1763970000000-drop-unused-hold-indexes';
import { OneTransferListingIndex1763970000001 } from './1763970000001-one-transfer-listing-index';
import { CorporateBondSettlement1764010000000 } from './1764010000000-corporate-bond-settlement';
import { IdempotencyPrincipalScope1764020000000 } from './1764020000000-idempotency-principal-scope';
import { OrderFillFigures1764030000000 } from './1764030000000-order-fill-figures';
import { CorporateActions1764040000000 } from './1764040000000-corporate-actions';
import { Activities1764050000000 } from './1764050000000-activities';
import { GeneratedDocuments1764050000001 } from './1764050000001-generated-documents';
import { Fx1764060000000 } from './1764060000000-fx';
import { Journals1764060000001 } from './1764060000001-journals';
import { FirmAccounts1764060000002 } from './1764060000002-firm-accounts';
import { AssetIdentityChanges1764100000000 } from './1764100000000-asset-identity-changes';
import { CorporateActionsReachNewTenants1764100000001 } from './1764100000001-corporate-actions-reach-new-tenants';

/**
 * Every migration, in order. Listed explicitly (not globbed) so the same list works from
 * ts-jest, ts-node and the compiled dist/ tree. Add each new migration class here.
 */
export const MIGRATIONS = [
  Foundation1763780000000,
  Webhooks1763790000000,
  Investors1763800000000,
  Assets1763810000000,
  AssetReferenceData1763810000001,
  IdempotencyLeases1763820000000,
  EncryptTaxIds1763831000000,
  SealIdempotentResponses1763831000001,
  ClockAndScheduler1763850000000,
  Ledger1763850000001,
  Transfers1763850100000,
  AssetSearchTerms1763900000000,
  Trading1763920000000,
  Wealth1763940000000,
  CashSweep1763930000000,
  RequestLogs1763950000000,
  WebhookSinks1763910000000,
  AssetCatalogueNotifications1763965000000,
  DropUnusedHoldIndexes1763970000000,
  OneTransferListingIndex1763970000001,
  CorporateBondSettlement1764010000000,
  IdempotencyPrincipalScope1764020000000,
  OrderFillFigures1764030000000,
  CorporateActions1764040000000,
  Activities1764050000000,
  GeneratedDocuments1764050000001,
  Fx1764060000000,
  Journals1764060000001,
  FirmAccounts1764060000002,
  AssetIdentityChanges1764100000000,
  CorporateActionsReachNewTenants1764100000001,
];
