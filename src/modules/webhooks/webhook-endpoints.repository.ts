import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { In, Repository, SelectQueryBuilder } from 'typeorm';
import { WebhookEndpointEntity } from 'src/modules/webhooks/entities/webhook-endpoint.entity';

/** Scope of every partner-facing query: one tenant, one mode. */
export interface EndpointScope {
  tenantId: string;
  livemode: boolean;
}

/** Queries on webhook_endpoints shared by the API and the delivery worker. */
@Injectable()
export class WebhookEndpointsRepository {
  constructor(@InjectRepository(WebhookEndpointEntity) readonly repo: Repository<WebhookEndpointEntity>) {}

  scoped(scope: EndpointScope): SelectQueryBuilder<WebhookEndpointEntity> {
    return this.repo
      .createQueryBuilder('w')
      .where('w.tenant_id = :tenantId AND w.livemode = :livemode', scope);
  }

  findScoped(scope: EndpointScope, id: string): Promise<WebhookEndpointEntity | null> {
    return this.repo.findOneBy({ id, tenant_id: scope.tenantId, livemode: scope.livemode });
  }

  countScoped(scope: EndpointScope): Promise<number> {
    return this.repo.countBy({ tenant_id: scope.tenantId, livemode: scope.livemode });
  }

  async findByIds(ids: string[]): Promise<Map<string, WebhookEndpointEntity>> {
    const rows = await this.repo.findBy({ id: In(ids) });
    return new Map(rows.map((r) => [r.id, r]));
  }

  /** Enabled endpoints of these tenants (both modes), with only what fan-out needs. */
  enabledForTenants(
    tenantIds: string[],
  ): Promise<Array<Pick<WebhookEndpointEntity, 'id' | 'tenant_id' | 'livemode' | 'event_type_names'>>> {
    return this.repo.find({
      select: { id: true, tenant_id: true, livemode: true, event_type_names: true },
      where: { tenant_id: In(tenantIds), status: 'enabled' },
    });
  }

  /** After a 410 Gone: the receiver asked us to stop. */
  async disable(id: string): Promise<void> {
    await this.repo.update({ id, status: 'enabled' }, { status: 'disabled' });
  }
}
