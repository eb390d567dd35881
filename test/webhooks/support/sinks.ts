import { IncomingHttpHeaders } from 'node:http';
import { basic, TestContext, TestCredentials } from '../../support/app';
import { createInvestor } from '../../investors/fixtures';

/** One delivery a webhook sink recorded (GET /v1/test_helpers/webhook-sinks/{id}/requests). */
export interface SinkRequest {
  sequence: number;
  method: string;
  headers: IncomingHttpHeaders;
  body: string;
  received_at: string;
}

/** A delivery attempt as GET /v1/events/{id}/attempts and GET /v1/webhooks/{id}/attempts answer it. */
export interface ApiAttempt {
  event_id: string;
  webhook_id: string;
  run: number;
  attempt: number;
  succeeded: boolean;
  status_code: number | null;
  error: string | null;
  duration_ms: number;
  next_retry_at: string | null;
}

/**
 * A receiver that works in both modes: the service's own webhook sink, answering every delivery
 * with `statusCode`. Deliveries are read back through the API, never from the test process.
 */
export async function createSink(
  ctx: TestContext,
  creds: TestCredentials,
  statusCode = 200,
): Promise<{ id: string; url: string }> {
  const res = await ctx
    .http()
    .post('/v1/test_helpers/webhook-sinks')
    .set('Authorization', basic(creds))
    .send({ status_code: statusCode });
  if (res.status !== 201) {
    throw new Error(
      `POST /v1/test_helpers/webhook-sinks answered ${res.status}: ${JSON.stringify(res.body)}`,
    );
  }
  return res.body as { id: string; url: string };
}

/** Everything the sink has recorded so far, oldest first. */
export async function sinkRequests(
  ctx: TestContext,
  creds: TestCredentials,
  sinkId: string,
): Promise<SinkRequest[]> {
  const all: SinkRequest[] = [];
  let after = 0;
  for (;;) {
    const res = await ctx
      .http()
      .get(`/v1/test_helpers/webhook-sinks/${sinkId}/requests`)
      .query({ after })
      .set('Authorization', basic(creds));
    if (res.status !== 200) {
      throw new Error(`Reading webhook sink ${sinkId} answered ${res.status}: ${JSON.stringify(res.body)}`);
    }
    const page = res.body.data as SinkRequest[];
    all.push(...page);
    if (!res.body.has_more || page.length === 0) {
      return all;
    }
    after = page[page.length - 1].sequence;
  }
}

/** The ids of the events in the sink's recorded deliveries, in arrival order. */
export const eventIdsIn = (requests: SinkRequest[]): string[] =>
  requests.map((r) => (JSON.parse(r.body) as { id: string }).id);

/**
 * Makes an event through the public API, in the credentials' tenant and mode: a new investor, whose
 * account.created event id is answered.
 */
export async function accountCreatedEvent(ctx: TestContext, creds: TestCredentials): Promise<string> {
  const investor = await createInvestor(ctx, creds);
  const res = await ctx
    .http()
    .get('/v1/events?event=account.created&limit=100')
    .set('Authorization', basic(creds));
  const event = (res.body.data as Array<{ id: string; data: { investor_id?: string } }>).find(
    (e) => e.data.investor_id === investor.id,
  );
  if (!event) {
    throw new Error(`No account.created event for investor ${investor.id}: ${JSON.stringify(res.body)}`);
  }
  return event.id;
}
