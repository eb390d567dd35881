import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { newId } from 'src/core/ids/ids';
import { WebhookDeadLetterEntity } from 'src/modules/webhooks/entities/webhook-dead-letter.entity';

export interface DeadLetterInput {
  tenantId: string;
  livemode: boolean;
  endpointId: string;
  eventId: string;
  attempts: number;
  lastStatusCode: number | null;
  lastError: string | null;
}

/** The dead-letter table: one row per (event, endpoint) that could not be delivered. */
@Injectable()
export class DeadLettersService {
  constructor(
    @InjectRepository(WebhookDeadLetterEntity)
    private readonly deadLetters: Repository<WebhookDeadLetterEntity>,
  ) {}

  /** Adds the delivery to the dead letters; one that was replayed and failed again is reopened. */
  async add(input: DeadLetterInput): Promise<void> {
    await this.deadLetters.query(
      `INSERT INTO "webhook_dead_letters"
         ("id", "tenant_id", "livemode", "endpoint_id", "event_id", "attempts", "last_status_code", "last_error")
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
       ON CONFLICT ("event_id", "endpoint_id") DO UPDATE SET
         "attempts" = EXCLUDED."attempts",
         "last_status_code" = EXCLUDED."last_status_code",
         "last_error" = EXCLUDED."last_error",
         "created_at" = now(),
         "replayed_at" = NULL`,
      [
        newId('deadLetter'),
        input.tenantId,
        input.livemode,
        input.endpointId,
        input.eventId,
        input.attempts,
        input.lastStatusCode,
        input.lastError,
      ],
    );
  }

  /** Newest first; by default only those not replayed yet. */
  async list(options: {
    tenantId?: string;
    includeReplayed?: boolean;
    limit?: number;
  }): Promise<WebhookDeadLetterEntity[]> {
    const qb = this.deadLetters.createQueryBuilder('d');
    if (options.tenantId) {
      qb.andWhere('d.tenant_id = :tenantId', { tenantId: options.tenantId });
    }
    if (!options.includeReplayed) {
      qb.andWhere('d.replayed_at IS NULL');
    }
    return qb
      .orderBy('d.created_at', 'DESC')
      .addOrderBy('d.id', 'DESC')
      .take(options.limit ?? 100)
      .getMany();
  }

  find(id: string): Promise<WebhookDeadLetterEntity | null> {
    return this.deadLetters.findOneBy({ id });
  }

  async markReplayed(id: string): Promise<void> {
    await this.deadLetters.query(
      `UPDATE "webhook_dead_letters" SET "replayed_at" = now(), "replay_count" = "replay_count" + 1 WHERE "id" = $1`,
      [id],
    );
  }

  static toJson(d: WebhookDeadLetterEntity) {
    return {
      id: d.id,
      tenant_id: d.tenant_id,
      livemode: d.livemode,
      endpoint_id: d.endpoint_id,
      event_id: d.event_id,
      attempts: d.attempts,
      last_status_code: d.last_status_code,
      last_error: d.last_error,
      created_at: d.created_at.toISOString(),
      replayed_at: d.replayed_at?.toISOString() ?? null,
      replay_count: d.replay_count,
    };
  }
}
