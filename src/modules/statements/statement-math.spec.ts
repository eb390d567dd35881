import type { ActivityRow } from 'src/modules/activities/activity-types';
import { realizedBySell } from 'src/modules/statements/statement-math';

let seq = 0;
function activity(fields: Partial<ActivityRow>): ActivityRow {
  seq += 1;
  return {
    id: `act_${String(seq).padStart(4, '0')}`,
    account_id: 'acc',
    status: 'executed',
    date: '2027-03-01',
    transaction_time: new Date('2027-03-01T15:00:00Z'),
    currency: 'USD',
    price: null,
    per_share_amount: null,
    side: null,
    order_id: null,
    transaction_id: null,
    corporate_action_id: null,
    journal_id: null,
    conversion_id: null,
    description: null,
    activity_type: 'FILL',
    net_amount: '0',
    symbol: null,
    qty: null,
    ...fields,
  } as ActivityRow;
}

describe('realizedBySell', () => {
  it('follows the basis through a split, a symbol change and a stock merger, and realizes a cash merger', () => {
    const history = [
      activity({ symbol: 'OLD', qty: '10', net_amount: '-1000' }),
      activity({ activity_type: 'SPLIT', symbol: 'OLD', qty: '10', corporate_action_id: 'ca_split' }),
      activity({ activity_type: 'NC', symbol: 'OLD', qty: '-20', corporate_action_id: 'ca_nc' }),
      activity({ activity_type: 'NC', symbol: 'NEW', qty: '20', corporate_action_id: 'ca_nc' }),
      // 5 of 20 sold at 60: the average cost is 50 a share after the split.
      activity({ symbol: 'NEW', qty: '-5', net_amount: '300' }),
      activity({
        activity_type: 'MA',
        symbol: 'NEW',
        qty: '-15',
        net_amount: '30',
        corporate_action_id: 'ca_sm',
      }),
      activity({
        activity_type: 'MA',
        symbol: 'ACQ',
        qty: '30',
        net_amount: '0',
        corporate_action_id: 'ca_sm',
      }),
      activity({
        activity_type: 'MA',
        symbol: 'ACQ',
        qty: '-30',
        net_amount: '900',
        corporate_action_id: 'ca_cm',
      }),
    ];
    const realized = realizedBySell(history);
    expect([...realized].map(([id, gain]) => [id, gain.toFixed()])).toEqual([
      [history[4].id, '50'],
      [history[7].id, '150'],
    ]);
  });
});
