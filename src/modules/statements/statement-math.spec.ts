import type { ActivityRow } from 'src/modules/activities/activity-types';
import { realizedBySell } from 'src/modules/statements/statement-math';

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

  it('counts cash in lieu as a sale of the fraction at the basis its action took out with it', () => {
    const history = [
      // 25 shares for 1,000; a 1-for-10 reverse split leaves 2.5 units, 0.5 sold at 41.30 (4.13 × 10).
      activity({ symbol: 'REV', qty: '25', net_amount: '-1000' }),
      activity({ activity_type: 'SPLIT', symbol: 'REV', qty: '-22.5', corporate_action_id: 'ca_rs' }),
      activity({
        activity_type: 'CIL',
        symbol: 'REV',
        qty: '-0.5',
        price: '41.3',
        net_amount: '20.65',
        corporate_action_id: 'ca_rs',
      }),
      // The 2 shares left carry 800 of the 1,000: sold for 900.
      activity({ symbol: 'REV', qty: '-2', net_amount: '900' }),
      // 4 ACQ held for 160; 7 TGT (cost 1,050) become 10.5 ACQ, 0.5 of them sold for 20.00.
      activity({ symbol: 'ACQ', qty: '4', net_amount: '-160' }),
      activity({ symbol: 'TGT', qty: '7', net_amount: '-1050' }),
      activity({
        activity_type: 'MA',
        symbol: 'TGT',
        qty: '-7',
        net_amount: '0',
        corporate_action_id: 'ca_sm',
      }),
      activity({
        activity_type: 'MA',
        symbol: 'ACQ',
        qty: '10.5',
        net_amount: '0',
        corporate_action_id: 'ca_sm',
      }),
      activity({
        activity_type: 'CIL',
        symbol: 'ACQ',
        qty: '-0.5',
        price: '40.01',
        net_amount: '20',
        corporate_action_id: 'ca_sm',
      }),
      // 14 ACQ left at 160 + 1,050 − 50 = 1,160: sold for 1,500.
      activity({ symbol: 'ACQ', qty: '-14', net_amount: '1500' }),
    ];
    const realized = realizedBySell(history);
    expect([...realized].map(([id, gain]) => [id, gain.toFixed()])).toEqual([
      // 20.65 − 1,000 × 0.5 / 2.5.
      [history[2].id, '-179.35'],
      // 900 − 800.
      [history[3].id, '100'],
      // 20.00 − 1,050 × 0.5 / 10.5: the merged shares' basis, not the average of all 14.5 ACQ.
      [history[8].id, '-30'],
      [history[9].id, '340'],
    ]);
  });
});

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
