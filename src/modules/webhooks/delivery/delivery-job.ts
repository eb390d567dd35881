/** Bull queue of webhook deliveries: one job per attempt of one event to one endpoint. */
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
 * Deterministic job id: the relay may hand the same event over twice (it died after enqueueing
 * but before its commit) and a retry may be scheduled twice (a worker died after scheduling it);
 * Bull ignores an add whose id already exists, so neither doubles a delivery.
 */
export function deliveryJobId(data: DeliveryJobData): string {
  return `${data.eventId}:${data.endpointId}:${data.run}:${data.attempt}`;
}
