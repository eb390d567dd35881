import type { ActivityDto } from 'src/modules/activities/dto/activity.dto';
import type { ActivityRow } from 'src/modules/activities/activity-types';
import { Money } from 'src/core/money/money';
import { minorUnits } from 'src/core/money/currencies';

/** The account-style record: cash amounts at the currency's minor units, quantities as stored. */
export function activityView(row: ActivityRow): ActivityDto {
  return {
    id: row.id,
    account_id: row.account_id,
    activity_type: row.activity_type,
    status: row.status,
    date: row.date,
    transaction_time: row.transaction_time.toISOString(),
    currency: row.currency,
    net_amount: new Money(row.net_amount).toFixed(minorUnits(row.currency)),
    symbol: row.symbol,
    qty: row.qty,
    price: row.price,
    per_share_amount: row.per_share_amount,
    side: row.side,
    order_id: row.order_id,
    transaction_id: row.transaction_id,
    corporate_action_id: row.corporate_action_id,
    journal_id: row.journal_id,
    conversion_id: row.conversion_id,
    description: row.description,
  };
}
