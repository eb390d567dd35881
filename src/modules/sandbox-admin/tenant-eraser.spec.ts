import { deletionOrder } from 'src/modules/sandbox-admin/tenant-eraser.service';

describe('deletionOrder', () => {
  it('puts every referencing table before the tables it references', () => {
    const tables = [
      { name: 'investment_accounts', references: ['tenants'] },
      { name: 'investors', references: ['investment_accounts', 'tenants'] },
      { name: 'ledger_entries', references: ['ledger_accounts', 'ledger_journals', 'tenants'] },
      { name: 'ledger_accounts', references: ['tenants'] },
      { name: 'ledger_journals', references: ['tenants'] },
      { name: 'events', references: [] },
    ];
    const order = deletionOrder(tables);
    expect([...order].sort()).toEqual(tables.map((t) => t.name).sort());
    const at = (name: string) => order.indexOf(name);
    expect(at('investors')).toBeLessThan(at('investment_accounts'));
    expect(at('ledger_entries')).toBeLessThan(at('ledger_accounts'));
    expect(at('ledger_entries')).toBeLessThan(at('ledger_journals'));
  });

  it('still lists every table when references form a cycle', () => {
    const order = deletionOrder([
      { name: 'a', references: ['b'] },
      { name: 'b', references: ['a'] },
      { name: 'c', references: ['a'] },
    ]);
    expect([...order].sort()).toEqual(['a', 'b', 'c']);
    expect(order.indexOf('c')).toBeLessThan(order.indexOf('a'));
  });
});
