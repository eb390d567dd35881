import { Injectable, Logger } from '@nestjs/common';
import { newId } from 'src/core/ids/ids';
import { AttemptRecorder, AttemptRow } from 'src/modules/webhooks/delivery/attempt-recorder.service';
import { DeadLettersService } from 'src/modules/webhooks/delivery/dead-letters.service';
import { DeliveryJobData } from 'src/modules/webhooks/delivery/delivery-job';
import { DeliveryQueue } from 'src/modules/webhooks/delivery/delivery-queue.service';
import { retryDelayMs } from 'src/modules/webhooks/delivery/retry-schedule';
import type { SendResult } from 'src/modules/webhooks/delivery/webhook-sender.service';
import {
  DeliveryTarget,
  WebhookEndpointsRepository,
} from 'src/modules/webhooks/webhook-endpoints.repository';

export type DeliveryOutcome =
  'delivered' | 'retry scheduled' | 'dead-lettered' | 'gone' | 'deferred' | 'dropped';

/**
 * What follows a POST: the attempt is recorded; a failed one gets its next attempt on the spec's
 * schedule or, after the fifth retry, a dead letter; a 410 disables the endpoint.
 */
@Injectable()
export class AttemptSettler {
  private readonly logger = new Logger('WebhookDelivery');

  constructor(
    private readonly recorder: AttemptRecorder,
    private readonly deliveries: DeliveryQueue,
    private readonly endpoints: WebhookEndpointsRepository,
    private readonly deadLetters: DeadLettersService,
  ) {}

  async settle(
    data: DeliveryJobData,
    endpoint: DeliveryTarget,
    result: SendResult,
  ): Promise<DeliveryOutcome> {
    const row: AttemptRow = {
      id: newId('deliveryAttempt'),
      tenant_id: endpoint.tenant_id,
      livemode: endpoint.livemode,
      endpoint_id: endpoint.id,
      event_id: data.eventId,
      run: data.run,
      attempt: data.attempt,
      attempted_at: new Date(Date.now() - result.durationMs),
      succeeded: result.error === null,
      status_code: result.statusCode,
      error: result.error,
      duration_ms: result.durationMs,
      next_attempt_at: null,
    };
    if (result.error === null) {
      await this.recorder.record(row);
      return 'delivered';
    }
    const deadLetter = {
      tenantId: endpoint.tenant_id,
      livemode: endpoint.livemode,
      endpointId: endpoint.id,
      eventId: data.eventId,
      attempts: data.attempt,
      lastStatusCode: result.statusCode,
      lastError: result.error,
    };
    if (result.statusCode === 410) {
      await this.recorder.record(row);
      await this.endpoints.disable(endpoint.id);
      await this.deadLetters.add({
        ...deadLetter,
        lastError: 'HTTP 410: the receiver is gone; endpoint disabled',
      });
      this.logger.warn(`Endpoint ${endpoint.id} answered 410 and was disabled`);
      return 'gone';
    }
    const delay = retryDelayMs(data.attempt);
    if (delay === null) {
      await this.recorder.record(row);
      await this.deadLetters.add(deadLetter);
      return 'dead-lettered';
    }
    // Scheduled before the attempt is recorded: a crash in between repeats this attempt (the
    // job runs again) instead of losing the retry; the retry's job id keeps it single.
    await this.deliveries.addRetry({ ...data, attempt: data.attempt + 1 }, delay);
    row.next_attempt_at = new Date(Date.now() + delay);
    await this.recorder.record(row);
    return 'retry scheduled';
  }
}
