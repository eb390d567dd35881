import { SinkOwner, WebhookReceiver } from '../../investors/receiver';

/**
 * Where this folder's specs point webhook endpoints: a loopback receiver with the in-process app,
 * the tenant's sandbox webhook sink against a deployed sandbox.
 */
export async function startWebhookSink(
  owner: SinkOwner,
): Promise<{ url: string; receiver: WebhookReceiver }> {
  const receiver = new WebhookReceiver();
  const url = await receiver.start(owner);
  return { url, receiver };
}
