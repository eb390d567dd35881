import { mergeMetadata } from 'src/core/http/metadata';
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { Principal } from 'src/core/auth/principal';
import { AppConfig } from 'src/core/config/app-config.service';
import { WebhookSinkInbox } from 'src/modules/webhook-sinks/webhook-sink-inbox.service';
import { ServiceError } from 'src/core/errors/service-error';
import { isEventPattern, WILDCARD_EXAMPLES } from 'src/core/events/event-patterns';
import { EventPayload, EventsService } from 'src/core/events/events.service';
import { ListEnvelope, toList, toResource } from 'src/core/http/envelope';
import type { CursorPageQuery } from 'src/core/http/pagination';
import { isIdOf, newId } from 'src/core/ids/ids';
import type { IdempotentRequest } from 'src/core/idempotency/idempotent-request';
import { IdempotentTransaction } from 'src/core/idempotency/idempotent-transaction';
import { CreateWebhookDto } from 'src/modules/webhooks/dto/create-webhook.dto';
import { UpdateWebhookDto } from 'src/modules/webhooks/dto/update-webhook.dto';
import {
  DeletedWebhookEndpointDto,
  WebhookEndpointDto,
  WebhookEndpointWithSecretDto,
} from 'src/modules/webhooks/dto/webhook-endpoint.dto';
import { WebhookEndpointEntity } from 'src/modules/webhooks/entities/webhook-endpoint.entity';
import { EndpointScope, WebhookEndpointsRepository } from 'src/modules/webhooks/webhook-endpoints.repository';
import {
  newWebhookSecret,
  PREVIOUS_SECRET_GRACE_MS,
  WebhookSecrets,
} from 'src/modules/webhooks/webhook-secrets';
import { checkWebhookUrl, UrlRefusedError } from 'src/modules/webhooks/webhook-url-policy';

/** Endpoints one tenant may register per mode. */
export const MAX_ENDPOINTS = 100;

/** Webhook endpoint management (tenant-level routes). */
@Injectable()
export class WebhooksService {
  constructor(
    private readonly endpoints: WebhookEndpointsRepository,
    private readonly secrets: WebhookSecrets,
    private readonly events: EventsService,
    private readonly transactions: IdempotentTransaction,
    private readonly config: AppConfig,
    private readonly sinks: WebhookSinkInbox,
  ) {}

  /** The signing secret is in this response only; the stored idempotent copy of it is sealed. */
  async create(
    principal: Principal,
    dto: CreateWebhookDto,
    idem: IdempotentRequest | undefined,
  ): Promise<WebhookEndpointWithSecretDto> {
    const eventTypeNames = this.checkEventTypeNames(dto.eventTypeNames);
    const url = await this.checkUrl(principal, dto.url);
    const scope = this.scope(principal);
    const secret = newWebhookSecret();
    // Webhook endpoints stay on real time in test mode too (docs/decisions.md, Test clock): deliveries
    // and their signatures run on real time, and the record says when the partner really acted.
    const now = new Date();
    const endpoint = this.endpoints.build({
      id: newId('webhookEndpoint'),
      tenant_id: scope.tenantId,
      livemode: scope.livemode,
      name: dto.name,
      url,
      event_type_names: eventTypeNames,
      status: 'enabled',
      secret_ciphertext: this.secrets.seal(secret),
      previous_secret_ciphertext: null,
      previous_secret_expires_at: null,
      metadata: dto.metadata ?? {},
      created_at: now,
      updated_at: now,
    });
    return this.transactions.run(idem, async (manager) => {
      if ((await this.endpoints.countScoped(scope, manager)) >= MAX_ENDPOINTS) {
        throw ServiceError.refused(
          `A tenant may register at most ${MAX_ENDPOINTS} webhook endpoints per mode; delete one first.`,
        );
      }
      await this.endpoints.insert(manager, endpoint);
      return { ...WebhooksService.toRecord(endpoint), secret };
    });
  }

  async list(
    principal: Principal,
    query: CursorPageQuery,
    url: string,
  ): Promise<ListEnvelope<WebhookEndpointDto>> {
    const page = await this.endpoints.pageScoped(this.scope(principal), query);
    return toList(url, page.data.map(WebhooksService.toRecord), page.hasMore);
  }

  async get(principal: Principal, id: string): Promise<WebhookEndpointDto> {
    return WebhooksService.toRecord(await this.find(principal, id));
  }

  async update(principal: Principal, id: string, dto: UpdateWebhookDto): Promise<WebhookEndpointDto> {
    const endpoint = await this.find(principal, id);
    for (const field of ['name', 'url', 'eventTypeNames', 'status', 'metadata'] as const) {
      if (dto[field] === null) {
        throw ServiceError.invalid(field, `${field} cannot be null; omit it to keep the current value.`);
      }
    }
    const changes: Partial<WebhookEndpointEntity> = {};
    if (dto.name !== undefined) {
      changes.name = dto.name;
    }
    if (dto.url !== undefined) {
      changes.url = await this.checkUrl(principal, dto.url);
    }
    if (dto.eventTypeNames !== undefined) {
      changes.event_type_names = this.checkEventTypeNames(dto.eventTypeNames);
    }
    if (dto.status !== undefined) {
      changes.status = dto.status;
    }
    if (dto.metadata !== undefined) {
      changes.metadata = mergeMetadata(endpoint.metadata, dto.metadata);
    }
    if (Object.keys(changes).length > 0) {
      changes.updated_at = new Date();
      await this.endpoints.update(endpoint.id, changes);
    }
    return WebhooksService.toRecord({ ...endpoint, ...changes });
  }

  async remove(principal: Principal, id: string): Promise<DeletedWebhookEndpointDto> {
    const endpoint = await this.find(principal, id);
    // Its attempts and dead letters go with it (ON DELETE CASCADE); queued jobs find it gone.
    await this.endpoints.delete(endpoint.id);
    return { id: endpoint.id, object: 'webhook_endpoint', deleted: true, livemode: endpoint.livemode };
  }

  /**
   * New secret now; the previous one keeps signing beside it for 24 hours. The row is locked so two
   * rotations at once chain (the second keeps the first's secret as previous) instead of losing one.
   */
  async rotateSecret(
    principal: Principal,
    id: string,
    idem: IdempotentRequest | undefined,
  ): Promise<WebhookEndpointWithSecretDto> {
    const secret = newWebhookSecret();
    return this.transactions.run(idem, async (manager) => {
      const endpoint = await this.find(principal, id, manager);
      const changes = {
        secret_ciphertext: this.secrets.seal(secret),
        previous_secret_ciphertext: endpoint.secret_ciphertext,
        previous_secret_expires_at: new Date(Date.now() + PREVIOUS_SECRET_GRACE_MS),
        updated_at: new Date(),
      };
      await this.endpoints.change(manager, endpoint.id, changes);
      return { ...WebhooksService.toRecord({ ...endpoint, ...changes }), secret };
    });
  }

  /** Sandbox helper: a signed `webhook.test` event to this endpoint only, through the normal queue. */
  async sendTestEvent(
    principal: Principal,
    id: string,
    idem: IdempotentRequest | undefined,
  ): Promise<EventPayload> {
    return this.transactions.run(idem, async (manager) => {
      const endpoint = await this.find(principal, id, manager);
      if (endpoint.status !== 'enabled') {
        throw ServiceError.conflict(
          `Webhook endpoint ${endpoint.id} is disabled; enable it to send a test event.`,
        );
      }
      const event = await this.events.emitTestEvent(manager, {
        tenantId: endpoint.tenant_id,
        livemode: endpoint.livemode,
        endpointId: endpoint.id,
        data: {
          object: 'webhook_endpoint',
          id: endpoint.id,
          message: 'Test event sent from the API. Verify its signature with your endpoint secret.',
        },
      });
      return EventsService.toPayload(event);
    });
  }

  static toRecord(endpoint: WebhookEndpointEntity): WebhookEndpointDto {
    return toResource(
      'webhook_endpoint',
      {
        id: endpoint.id,
        created_at: endpoint.created_at,
        livemode: endpoint.livemode,
        metadata: endpoint.metadata,
      },
      {
        name: endpoint.name,
        url: endpoint.url,
        eventTypeNames: endpoint.event_type_names,
        status: endpoint.status,
      },
    ) as WebhookEndpointDto;
  }

  private scope(principal: Principal): EndpointScope {
    return { tenantId: principal.tenantId, livemode: principal.livemode };
  }

  /** The caller's endpoint (404 otherwise); with a transaction's manager, locked until it ends. */
  private async find(
    principal: Principal,
    id: string,
    manager?: EntityManager,
  ): Promise<WebhookEndpointEntity> {
    const endpoint = isIdOf('webhookEndpoint', id)
      ? await this.endpoints.findScoped(this.scope(principal), id, manager, { lock: manager !== undefined })
      : null;
    if (!endpoint) {
      throw ServiceError.notFound('webhook endpoint', id);
    }
    return endpoint;
  }

  /** Each entry a known event name or wildcard (param `eventTypeNames[i]`); duplicates dropped. */
  private checkEventTypeNames(names: unknown[]): string[] {
    names.forEach((name, i) => {
      if (typeof name !== 'string' || !isEventPattern(name)) {
        throw ServiceError.invalid(
          `eventTypeNames[${i}]`,
          `Unknown event type ${JSON.stringify(name)}. Use a name from GET /v1/webhooks/event-types or a ` +
            `wildcard: ${WILDCARD_EXAMPLES.join(', ')}.`,
        );
      }
    });
    return [...new Set(names as string[])];
  }

  private async checkUrl(principal: Principal, raw: string): Promise<string> {
    const strict = this.config.isProduction || principal.livemode;
    if (!principal.livemode && this.sinks.sinkIdOf(raw.trim())) {
      // A webhook sink of this deployment (test mode): the service owns the address.
      return raw.trim();
    }
    try {
      await checkWebhookUrl(raw.trim(), strict);
      return raw.trim();
    } catch (err) {
      if (err instanceof UrlRefusedError) {
        throw ServiceError.invalid('url', err.message);
      }
      throw err;
    }
  }
}
