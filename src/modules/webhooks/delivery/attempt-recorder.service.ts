import { Injectable, Logger } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { QueryFailedError, Repository } from 'typeorm';
import { WebhookDeliveryAttemptEntity } from 'src/modules/webhooks/entities/webhook-delivery-attempt.entity';

/** An attempt as stored; its id is made by the caller (`newId('deliveryAttempt')`). */
export type AttemptRow = Omit<WebhookDeliveryAttemptEntity, 'endpoint' | 'event'>;

interface Waiter {
  row: AttemptRow;
  resolve(): void;
  reject(err: unknown): void;
}

const MAX_BATCH = 500;
const COLUMNS =
  '"id", "tenant_id", "livemode", "endpoint_id", "event_id", "run", "attempt", "attempted_at", "succeeded", ' +
  '"status_code", "error", "duration_ms", "next_attempt_at"';
const FOREIGN_KEY_VIOLATION = '23503';

/**
 * Records delivery attempts with group commit: attempts that finish while an insert is running
 * go into the next multi-row insert. Each caller still waits until its row is stored, so a job
 * completes only after its attempt is on record.
 */
@Injectable()
export class AttemptRecorder {
  private readonly logger = new Logger(AttemptRecorder.name);
  private queue: Waiter[] = [];
  private flushing = false;

  constructor(
    @InjectRepository(WebhookDeliveryAttemptEntity)
    private readonly attempts: Repository<WebhookDeliveryAttemptEntity>,
  ) {}

  record(row: AttemptRow): Promise<void> {
    return new Promise((resolve, reject) => {
      this.queue.push({ row, resolve, reject });
      if (!this.flushing) {
        this.flushing = true;
        setImmediate(() => void this.flush());
      }
    });
  }

  /** Endpoints that already have this attempt of this event on record (a job run again skips them). */
  async recordedEndpoints(eventId: string, run: number, attempt: number): Promise<Set<string>> {
    const rows: Array<{ endpoint_id: string }> = await this.attempts.query(
      `SELECT "endpoint_id" FROM "webhook_delivery_attempts" WHERE "event_id" = $1 AND "run" = $2 AND "attempt" = $3`,
      [eventId, run, attempt],
    );
    return new Set(rows.map((r) => r.endpoint_id));
  }

  private async flush(): Promise<void> {
    while (this.queue.length > 0) {
      const batch = this.queue.splice(0, MAX_BATCH);
      try {
        await this.insert(batch.map((w) => w.row));
        batch.forEach((w) => w.resolve());
      } catch {
        // One bad row (its endpoint was deleted meanwhile) must not fail the others.
        await Promise.all(batch.map((w) => this.insertOne(w)));
      }
    }
    this.flushing = false;
  }

  /**
   * One statement for the whole batch, its rows as one JSON parameter: JSON.stringify is the
   * cheapest way for this process to send them (array parameters are built element by element).
   */
  private async insert(rows: AttemptRow[]): Promise<void> {
    await this.attempts.query(
      `INSERT INTO "webhook_delivery_attempts" (${COLUMNS})
       SELECT ${COLUMNS} FROM json_populate_recordset(NULL::"webhook_delivery_attempts", $1::json)`,
      [JSON.stringify(rows)],
    );
  }

  private async insertOne(waiter: Waiter): Promise<void> {
    try {
      await this.insert([waiter.row]);
      waiter.resolve();
    } catch (err) {
      if (
        err instanceof QueryFailedError &&
        (err.driverError as { code?: string }).code === FOREIGN_KEY_VIOLATION
      ) {
        this.logger.warn(`Attempt not recorded: endpoint ${waiter.row.endpoint_id} no longer exists`);
        waiter.resolve();
      } else {
        waiter.reject(err);
      }
    }
  }
}
