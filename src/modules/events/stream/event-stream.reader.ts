import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Brackets, Repository, SelectQueryBuilder } from 'typeorm';
import { EventEntity } from 'src/core/events/event.entity';
import type { StreamCursor, StreamScope } from 'src/modules/events/stream/stream-scope';

/** The outbox queries of event streams: the anchor of a replay, pages after a cursor, one event. */
@Injectable()
export class EventStreamReader {
  constructor(@InjectRepository(EventEntity) private readonly events: Repository<EventEntity>) {}

  /** The position of an event the scope's key can read (any type), or null. */
  async anchor(scope: StreamScope, id: string): Promise<StreamCursor | null> {
    const qb = this.events
      .createQueryBuilder('e')
      .select(['e.id', 'e.created_at'])
      .where('e.id = :id AND e.tenant_id = :tenantId AND e.livemode = :livemode', {
        id,
        tenantId: scope.tenantId,
        livemode: scope.livemode,
      });
    if (scope.investorId !== null) {
      qb.andWhere(`e.data->>'investor_id' = :investorId`, { investorId: scope.investorId });
    }
    const row = await qb.getOne();
    return row ? { createdAt: row.created_at, id: row.id } : null;
  }

  /**
   * Up to `limit` events of the scope after `cursor` in outbox order, none created before `floor`.
   * Test events (one endpoint's `webhook.test`) are never streamed.
   */
  async after(scope: StreamScope, cursor: StreamCursor, limit: number, floor?: Date): Promise<EventEntity[]> {
    const qb = this.scoped(scope).andWhere(
      new Brackets((w) =>
        w
          .where('e.created_at > :at', { at: cursor.createdAt })
          .orWhere('e.created_at = :at AND e.id > :id', { id: cursor.id }),
      ),
    );
    if (floor) {
      qb.andWhere('e.created_at >= :floor', { floor });
    }
    return qb.orderBy('e.created_at', 'ASC').addOrderBy('e.id', 'ASC').limit(limit).getMany();
  }

  async byId(id: string): Promise<EventEntity | null> {
    return this.events.findOneBy({ id });
  }

  private scoped(scope: StreamScope): SelectQueryBuilder<EventEntity> {
    const qb = this.events
      .createQueryBuilder('e')
      .where('e.tenant_id = :tenantId AND e.livemode = :livemode AND e.endpoint_id IS NULL', {
        tenantId: scope.tenantId,
        livemode: scope.livemode,
      });
    if (scope.investorId !== null) {
      qb.andWhere(`e.data->>'investor_id' = :investorId`, { investorId: scope.investorId });
    }
    if (scope.types && !scope.types.includes('*')) {
      const names = scope.types.filter((t) => !t.endsWith('.*'));
      const prefixes = scope.types
        .filter((t) => t.endsWith('.*'))
        .map((t) => `${t.slice(0, -1).replace(/_/g, '\\_')}%`);
      qb.andWhere(
        new Brackets((w) => {
          w.where('e.event = ANY(:names)', { names });
          prefixes.forEach((prefix, i) => w.orWhere(`e.event LIKE :prefix${i}`, { [`prefix${i}`]: prefix }));
        }),
      );
    }
    return qb;
  }
}
