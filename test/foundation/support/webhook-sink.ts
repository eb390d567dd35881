import { WebhookReceiver } from '../../investors/receiver';

/**
 * Where this folder's specs point webhook endpoints: the loopback receiver for now, one place to
 * swap for the sandbox's webhook sinks later.
 */
export async function startWebhookSink(): Promise<{ url: string; receiver: WebhookReceiver }> {
  const receiver = new WebhookReceiver();
  const url = await receiver.start();
  return { url, receiver };
}
