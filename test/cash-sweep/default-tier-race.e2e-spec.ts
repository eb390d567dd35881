import { AprTiersRepository, SweepScope } from 'src/modules/cash-sweep/apr-tiers.repository';
import { itLocal, useTestContext } from '../support/app';

/**
 * The first accounts of a tenant open at once (a partner's first burst of investors): each
 * enrolment makes sure the tenant has its default cash sweep tier, and all but one find it made.
 * The default tier's insert may meet the concurrent one on either of the tiers' unique indexes
 * (the default per currency, and active names per currency); neither may fail an opening.
 */
describe('The default cash sweep tier, made by concurrent first openings', () => {
  const ctx = useTestContext();

  itLocal(
    'gives four concurrent first openings of each tenant, mode and currency the one default tier',
    async () => {
      const tiers = ctx.app!.get(AprTiersRepository);
      const scopes: Array<{ scope: SweepScope; currency: string }> = [];
      for (let i = 0; i < TENANTS; i++) {
        const { tenantId } = await ctx.createTenant();
        for (const livemode of [false, true]) {
          for (const currency of ['USD', 'NGN', 'KES']) {
            scopes.push({ scope: { tenantId, livemode }, currency });
          }
        }
      }
      const failures: string[] = [];
      for (const { scope, currency } of scopes) {
        const made = await Promise.all(
          Array.from({ length: 4 }, () =>
            ctx.dataSource
              .transaction((manager) => tiers.ensureDefault(manager, scope, currency, new Date()))
              .then(
                (tier) => tier.id,
                (err: Error) => (failures.push(err.message), null),
              ),
          ),
        );
        const ids = new Set(made.filter((id) => id !== null));
        expect(ids.size).toBeLessThanOrEqual(1);
      }
      expect(failures).toEqual([]);
      const defaults = await ctx.dataSource.query(
        `SELECT tenant_id, livemode, currency, count(*)::int AS n FROM cash_sweep_tiers
        WHERE is_default AND tenant_id = ANY($1) GROUP BY 1, 2, 3`,
        [[...new Set(scopes.map((s) => s.scope.tenantId))]],
      );
      expect(defaults).toHaveLength(scopes.length);
      expect(defaults.every((row: { n: number }) => row.n === 1)).toBe(true);
    },
  );
});

/** Tenants of the case: 6 scopes each, 4 openings per scope (the race showed in ~4 % of such rounds). */
const TENANTS = 30;
