import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { Principal } from 'src/core/auth/principal';
import { unixSeconds } from 'src/core/http/envelope';
import { ServiceError } from 'src/core/errors/service-error';
import type { IdempotentRequest } from 'src/core/idempotency/idempotent-request';
import { IdempotentTransaction } from 'src/core/idempotency/idempotent-transaction';
import { newId } from 'src/core/ids/ids';
import { WebhookSinkInbox } from 'src/modules/webhook-sinks/webhook-sink-inbox.service';
import {
  CreateWebhookSinkDto,
  WebhookSinkDto,
  WebhookSinkRequestDto,
} from 'src/modules/webhook-sinks/dto/webhook-sink.dto';

interface SinkRow {
  id: string;
  tenant_id: string;
  answer_status: number;
  created_at: Date;
}

/**
 * Webhook sinks: receivers the sandbox hosts for test mode, so a partner (or a QA run against a
 * deployed sandbox) sees deliveries before it has a receiver of its own. Recording is
 * WebhookSinkInbox's part (shared with the delivery worker).
 */
@Injectable()
export class WebhookSinksService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly transactions: IdempotentTransaction,
    private readonly inbox: WebhookSinkInbox,
  ) {}

  async create(
    principal: Principal,
    dto: CreateWebhookSinkDto,
    idem: IdempotentRequest | undefined,
  ): Promise<WebhookSinkDto> {
    return this.transactions.run(idem, async (manager) => {
      const rows: SinkRow[] = await manager.query(
        `INSERT INTO "webhook_sinks" ("id", "tenant_id", "answer_status") VALUES ($1, $2, $3) RETURNING *`,
        [newId('webhookSink'), principal.tenantId, dto.status_code ?? 200],
      );
      return this.view(rows[0]);
    });
  }

  async get(principal: Principal, sinkId: string): Promise<WebhookSinkDto> {
    return this.view(await this.find(principal, sinkId));
  }

  async requests(
    principal: Principal,
    sinkId: string,
    after: number,
    limit: number,
  ): Promise<{ data: WebhookSinkRequestDto[]; has_more: boolean }> {
    await this.find(principal, sinkId);
    const rows: Array<{
      seq: string;
      method: string;
      headers: Record<string, string>;
      body: string;
      received_at: Date;
    }> = await this.dataSource.query(
      `SELECT "seq", "method", "headers", "body", "received_at" FROM "webhook_sink_requests"
          WHERE "sink_id" = $1 AND "seq" > $2 ORDER BY "seq" LIMIT $3`,
      [sinkId, after, limit + 1],
    );
    return {
      data: rows.slice(0, limit).map((r) => ({
        sequence: Number(r.seq),
        method: r.method,
        headers: r.headers,
        body: r.body,
        received_at: r.received_at.toISOString(),
      })),
      has_more: rows.length > limit,
    };
  }

  private async find(principal: Principal, sinkId: string): Promise<SinkRow> {
    const rows: SinkRow[] = principal.livemode
      ? []
      : await this.dataSource.query(`SELECT * FROM "webhook_sinks" WHERE "id" = $1 AND "tenant_id" = $2`, [
          sinkId,
          principal.tenantId,
        ]);
    if (rows.length === 0) {
      throw ServiceError.notFound('webhook sink', sinkId);
    }
    return rows[0];
  }

  private view(row: SinkRow): WebhookSinkDto {
    return {
      id: row.id,
      object: 'webhook_sink',
      url: `${this.inbox.urlPrefix}${row.id}`,
      status_code: row.answer_status,
      livemode: false,
      created: unixSeconds(row.created_at) as number,
    };
  }
}
