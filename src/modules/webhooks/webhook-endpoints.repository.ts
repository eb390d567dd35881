import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { DeepPartial, EntityManager, In, Repository } from 'typeorm';
import { CursorPage, CursorPageQuery, paginateByCursor } from 'src/core/http/pagination';
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
  constructor(
    @InjectRepository(WebhookEndpointEntity) private readonly repo: Repository<WebhookEndpointEntity>,
  ) {}

  /** A new endpoint row, not yet saved (insert writes it in the caller's transaction). */
  build(fields: DeepPartial<WebhookEndpointEntity>): WebhookEndpointEntity {
    return this.repo.create(fields);
  }

  /** One cursor page of the scope's endpoints, newest first. */
  pageScoped(scope: EndpointScope, query: CursorPageQuery): Promise<CursorPage<WebhookEndpointEntity>> {
    const endpoints = this.repo
      .createQueryBuilder('w')
      .where('w.tenant_id = :tenantId AND w.livemode = :livemode', scope);
    return paginateByCursor(endpoints, query);
  }

  /** The scope's enabled endpoints (a replay's candidates). */
  enabledOfScope(scope: EndpointScope): Promise<WebhookEndpointEntity[]> {
    return this.repo.findBy({ tenant_id: scope.tenantId, livemode: scope.livemode, status: 'enabled' });
  }

  /** An endpoint by id, of any tenant: callers check the scope against what they hold. */
  findById(id: string): Promise<WebhookEndpointEntity | null> {
    return this.repo.findOneBy({ id });
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

  /** Changes an endpoint outside any other transaction (a partner's update). */
  async update(id: string, changes: Partial<WebhookEndpointEntity>): Promise<void> {
    await this.repo.update({ id }, changes);
  }

  /** Deletes an endpoint; its attempts and dead letters go with it (ON DELETE CASCADE). */
  async delete(id: string): Promise<void> {
    await this.repo.delete({ id });
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
