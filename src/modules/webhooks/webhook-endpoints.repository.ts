import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { EntityManager, In, Repository, SelectQueryBuilder } from 'typeorm';
import { WebhookEndpointEntity } from 'src/modules/webhooks/entities/webhook-endpoint.entity';

/** Scope of every partner-facing query: one tenant, one mode. */
export interface EndpointScope {
  tenantId: string;
  livemode: boolean;
}

/** The columns of an endpoint that delivering to it reads. */
export type DeliveryTarget = Pick<
  WebhookEndpointEntity,
  | 'id'
  | 'tenant_id'
  | 'livemode'
  | 'status'
  | 'url'
  | 'secret_ciphertext'
  | 'previous_secret_ciphertext'
  | 'previous_secret_expires_at'
>;

/** Queries on webhook_endpoints shared by the API and the delivery worker. */
@Injectable()
export class WebhookEndpointsRepository {
  constructor(@InjectRepository(WebhookEndpointEntity) readonly repo: Repository<WebhookEndpointEntity>) {}

  scoped(scope: EndpointScope): SelectQueryBuilder<WebhookEndpointEntity> {
    return this.repo
      .createQueryBuilder('w')
      .where('w.tenant_id = :tenantId AND w.livemode = :livemode', scope);
  }

  /** One endpoint of the scope; with `lock`, held until the caller's transaction ends. */
  findScoped(
    scope: EndpointScope,
    id: string,
    manager: EntityManager = this.repo.manager,
    options: { lock?: boolean } = {},
  ): Promise<WebhookEndpointEntity | null> {
    return manager.findOne(WebhookEndpointEntity, {
      where: { id, tenant_id: scope.tenantId, livemode: scope.livemode },
      ...(options.lock ? { lock: { mode: 'pessimistic_write' as const } } : {}),
    });
  }

  countScoped(scope: EndpointScope, manager: EntityManager = this.repo.manager): Promise<number> {
    return manager.countBy(WebhookEndpointEntity, { tenant_id: scope.tenantId, livemode: scope.livemode });
  }

  async insert(manager: EntityManager, endpoint: WebhookEndpointEntity): Promise<void> {
    await manager.insert(WebhookEndpointEntity, endpoint);
  }

  async change(manager: EntityManager, id: string, changes: Partial<WebhookEndpointEntity>): Promise<void> {
    await manager.update(WebhookEndpointEntity, { id }, changes);
  }

  /**
   * What delivery needs of these endpoints, by id: one plain statement, no entity built (every
   * delivery reads its endpoint, so the per-row work counts).
   */
  async findDeliveryTargets(ids: string[]): Promise<Map<string, DeliveryTarget>> {
    const rows: DeliveryTarget[] = await this.repo.query(
      `SELECT "id", "tenant_id", "livemode", "status", "url", "secret_ciphertext", "previous_secret_ciphertext",
              "previous_secret_expires_at"
         FROM "webhook_endpoints" WHERE "id" = ANY($1)`,
      [ids],
    );
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
