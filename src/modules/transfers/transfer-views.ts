import { unixSeconds } from 'src/core/http/envelope';
import { minorUnits } from 'src/core/money/currencies';
import { toMoneyText } from 'src/core/money/money';
import type {
  DepositDto,
  WalletTransactionDto,
  WithdrawalDto,
} from 'src/modules/transfers/dto/wallet-transaction.dto';
import type { TransferEntity } from 'src/modules/transfers/entities/transfer.entity';

const iso = (date: Date | null): string | null => (date ? date.toISOString() : null);

/** An amount in the currency's minor units ("250.00", "1000" for JPY). */
export function amountText(value: string, currency: string): string {
  return toMoneyText(value, minorUnits(currency));
}

/** The account-style wallet transaction (spec, Wallet transaction). */
export function walletTransaction(t: TransferEntity): WalletTransactionDto {
  return {
    transaction_id: t.transaction_id,
    account_id: t.account_id,
    type: t.type,
    status: t.status,
    amount: amountText(t.amount, t.currency),
    currency: t.currency,
    funding_type: t.funding_type,
    funding_details: {
      funding_type: t.funding_type,
      fiat_currency: t.currency,
      bank_account_id: t.funding_source_id,
      method: t.method,
    },
    description: t.description,
    external_reference_id: t.external_reference_id,
    fee: amountText(t.fee, t.currency),
    net_amount: amountText(t.net_amount, t.currency),
    created_at: t.created_at.toISOString(),
    settled_at: iso(t.settled_at),
    failed_at: iso(t.failed_at),
    canceled_at: iso(t.canceled_at),
    failure_reason: t.failure_reason,
    deposit_id: t.type === 'deposit' ? t.id : null,
    withdrawal_id: t.type === 'withdrawal' ? t.id : null,
  };
}

/** The envelope-style deposit (dep_) or withdrawal (wdr_) view of the same transfer. */
export function transferView(t: TransferEntity): DepositDto | WithdrawalDto {
  return {
    id: t.id,
    object: t.type,
    created: unixSeconds(t.created_at) as number,
    livemode: t.livemode,
    metadata: t.metadata,
    investor_id: t.investor_id,
    account_id: t.account_id,
    transaction_id: t.transaction_id,
    status: t.status,
    amount: amountText(t.amount, t.currency),
    currency: t.currency,
    fee: amountText(t.fee, t.currency),
    net_amount: amountText(t.net_amount, t.currency),
    funding_source_id: t.funding_source_id,
    method: t.method,
    description: t.description,
    external_reference_id: t.external_reference_id,
    failure_reason: t.failure_reason,
    settled_at: iso(t.settled_at),
    failed_at: iso(t.failed_at),
    canceled_at: iso(t.canceled_at),
  } as DepositDto | WithdrawalDto;
}

/** Event data: the wallet transaction record plus the investor (docs/decisions.md, Funding sources, deposits and withdrawals). */
export function transferEventData(t: TransferEntity): Record<string, unknown> {
  return { ...walletTransaction(t), investor_id: t.investor_id };
}
