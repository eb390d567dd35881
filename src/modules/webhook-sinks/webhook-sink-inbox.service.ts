import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { AppConfig } from 'src/core/config/app-config.service';
import { isIdOf } from 'src/core/ids/ids';

/** Path of a sink's receiving route under the API prefix; its url is PUBLIC_URL + this. */
export const SINK_PATH = '/v1/webhook-sinks/';
/** A sink keeps its latest requests only, so a forgotten one cannot grow without bound. */
const MAX_REQUESTS_PER_SINK = 1000;
/** Headers kept per request (the rest are dropped). */
const MAX_HEADERS = 64;

/**
 * Where sink requests are recorded. A delivery to a sink of this deployment is recorded here
 * without leaving the process: the service owns the address, so the webhook SSRF rules (https,
 * public hosts only) need not apply and PUBLIC_URL need not be reachable from the worker. The
 * sink's url also accepts POSTs over HTTP (WebhookSinkInboxController).
 */
@Injectable()
export class WebhookSinkInbox {
  private readonly baseUrl: string;

  constructor(
    private readonly dataSource: DataSource,
    config: AppConfig,
  ) {
    this.baseUrl = `${config.get('PUBLIC_URL').replace(/\/$/, '')}${SINK_PATH}`;
  }

  /** Every sink url starts with this. */
  get urlPrefix(): string {
    return this.baseUrl;
  }

  /** The sink id when `url` is a sink of this deployment, else undefined. */
  sinkIdOf(url: string): string | undefined {
    if (!url.startsWith(this.baseUrl)) {
      return undefined;
    }
    const id = url.slice(this.baseUrl.length);
    return isIdOf('webhookSink', id) && /^[A-Za-z0-9_-]+$/.test(id) ? id : undefined;
  }

  /**
   * Records one request to a sink and returns the status the sink answers with, or 404 when no
   * such sink exists (deleted with its tenant, or never made).
   */
  async record(
    sinkId: string,
    method: string,
    headers: Record<string, unknown>,
    body: string,
  ): Promise<number> {
    const kept: Record<string, string> = {};
    for (const [name, value] of Object.entries(headers).slice(0, MAX_HEADERS)) {
      if (typeof value === 'string') {
        kept[name.toLowerCase()] = value;
      } else if (Array.isArray(value)) {
        kept[name.toLowerCase()] = value.join(', ');
      }
    }
    const rows: Array<{ answer_status: number }> = await this.dataSource.query(
      `WITH sink AS (SELECT "id", "tenant_id", "answer_status" FROM "webhook_sinks" WHERE "id" = $1),
            added AS (
              INSERT INTO "webhook_sink_requests" ("sink_id", "tenant_id", "method", "headers", "body")
              SELECT "id", "tenant_id", $2, $3::jsonb, $4 FROM sink RETURNING "seq")
       SELECT "answer_status" FROM sink`,
      [sinkId, method, JSON.stringify(kept), body],
    );
    if (rows.length === 0) {
      return 404;
    }
    await this.dataSource.query(
      `DELETE FROM "webhook_sink_requests" WHERE "sink_id" = $1 AND "seq" <= (
         SELECT "seq" FROM "webhook_sink_requests" WHERE "sink_id" = $1 ORDER BY "seq" DESC OFFSET $2 LIMIT 1)`,
      [sinkId, MAX_REQUESTS_PER_SINK],
    );
    return rows[0].answer_status;
  }
}
