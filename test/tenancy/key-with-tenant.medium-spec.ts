import { ApiKeyEntity } from 'src/core/tenancy/api-key.entity';
import { TenancyService } from 'src/core/tenancy/tenancy.service';
import { createServiceContext, describeLocal, ServiceContext } from '../support/service-context';

describeLocal('TenancyService.findKeyWithTenant', () => {
  let ctx: ServiceContext;
  let tenancy: TenancyService;

  beforeAll(async () => {
    ctx = await createServiceContext([]);
    tenancy = ctx.app.get(TenancyService);
  });

  afterAll(() => ctx?.close());

  it('reads a key and its tenant exactly as TypeORM hydrates them, every column included', async () => {
    const { tenant } = await tenancy.createTenant('Key reader partner', ['cash_management'], true);
    const { key: created } = await tenancy.createKey({
      tenantId: tenant.id,
      environment: 'PRODUCTION',
      investorId: 'inv_reader',
      name: 'reader',
      expiresAt: new Date('2031-02-03T04:05:06.789Z'),
      metadata: { team: 'ops' },
    });
    await tenancy.revokeKey(created.id);

    const found = await tenancy.findKeyWithTenant(created.public_key);
    const byTypeorm = await ctx.dataSource.getRepository(ApiKeyEntity).findOne({
      where: { public_key: created.public_key },
      relations: { tenant: true },
    });
    expect(byTypeorm).not.toBeNull();
    expect(found?.key).toBeInstanceOf(ApiKeyEntity);
    expect(found?.key).toEqual(byTypeorm);
    expect(found?.tenant).toEqual(byTypeorm!.tenant);
    expect(found?.key.revoked_at).toBeInstanceOf(Date);
    expect(found?.tenant.products).toEqual(['cash_management']);
  });

  it('answers null for a public key nobody holds', async () => {
    expect(await tenancy.findKeyWithTenant('pk_test_nobody')).toBeNull();
  });
});
