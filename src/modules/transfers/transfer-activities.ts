import { Money } from 'src/core/money/money';
import type { ActivityInput } from 'src/modules/activities/activity-types';
import type { TransferEntity } from 'src/modules/transfers/entities/transfer.entity';

/**
 * The activities of a settled transfer (docs/decisions.md, Activities): `CSD` / `CSW` carries the cash
 * change less the fee, and a non-zero fee is its own `FEE`, so the two sum to the settlement
 * journal's effect on the investor's cash (a deposit credits amount − fee, a withdrawal debits
 * amount).
 */
export function transferActivities(t: TransferEntity, at: Date): ActivityInput[] {
  const deposit = t.type === 'deposit';
  const fee = new Money(t.fee);
  const common = {
    accountId: t.account_id,
    at,
    currency: t.currency,
    transactionId: t.transaction_id,
  };
  const main: ActivityInput = {
    ...common,
    key: `${t.transaction_id}:settled`,
    type: deposit ? 'CSD' : 'CSW',
    netAmount: deposit ? new Money(t.amount) : new Money(t.net_amount).negated(),
    description: deposit ? 'Deposit settled' : 'Withdrawal settled',
  };
  if (fee.lte(0)) {
    return [main];
  }
  return [
    main,
    {
      ...common,
      key: `${t.transaction_id}:settled:fee`,
      type: 'FEE',
      netAmount: fee.negated(),
      description: deposit ? 'Deposit fee' : 'Withdrawal fee',
    },
  ];
}
