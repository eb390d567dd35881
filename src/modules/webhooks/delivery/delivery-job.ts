import { createHash } from 'node:crypto';

/**
 * Bull queue of webhook deliveries. A job is one attempt of one event to one endpoint, or the
 * first attempts of one event to each of its endpoints (a fan-out job): one queue round trip for
 * an event subscribed by many endpoints instead of one per endpoint.
 */
export const WEBHOOK_DELIVERY_QUEUE = 'webhook-deliveries';

export interface DeliveryJobData {
  eventId: string;
  endpointId: string;
  /** 0 for the original delivery; support replays start run 1, 2, ... */
  run: number;
  /** 1 = first try, 2..6 = retries. */
  attempt: number;
}

/**
 * The first attempt of one event to several endpoints (at most a tenant's endpoint limit, 100).
 * Each delivery is recorded as its own attempt; a failed one is retried as a DeliveryJobData.
 */
export interface FanOutJobData {
  eventId: string;
  endpointIds: string[];
  run: number;
  attempt: 1;
}

export type DeliveryQueueJob = DeliveryJobData | FanOutJobData;

export function isFanOut(data: DeliveryQueueJob): data is FanOutJobData {
  return Array.isArray((data as FanOutJobData).endpointIds);
}

/** The single deliveries a fan-out job stands for. */
export function deliveriesOf(data: FanOutJobData): DeliveryJobData[] {
  return data.endpointIds.map((endpointId) => ({
    eventId: data.eventId,
    endpointId,
    run: data.run,
    attempt: data.attempt,
  }));
}

/**
 * Deterministic job id: the relay may hand the same event over twice (it died after enqueueing
 * but before its commit) and a retry may be scheduled twice (a worker died after scheduling it);
 * Bull ignores an add whose id already exists, so neither doubles a delivery. A fan-out job's id
 * names its endpoints by a digest of their sorted ids: handed over again with the same endpoints,
 * it is the same job.
 */
export function deliveryJobId(data: DeliveryQueueJob): string {
  if (isFanOut(data)) {
    const digest = createHash('sha256')
      .update([...data.endpointIds].sort().join(','))
      .digest('base64url')
      .slice(0, 22);
    return `${data.eventId}:fan-out:${data.run}:${data.attempt}:${digest}`;
  }
  return `${data.eventId}:${data.endpointId}:${data.run}:${data.attempt}`;
}
