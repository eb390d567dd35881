import type { Queue } from 'bull';

type QueueClient = { status: string; once(event: string, listener: () => void): unknown };

/**
 * Waits (at most `timeoutMs`) until every Redis connection a Bull queue has opened is ready or
 * ended. A queue closed while one of its connections is still handshaking makes ioredis reject
 * the queued handshake command with nobody listening, and the process then dies on an unhandled
 * rejection instead of shutting down cleanly (seen when a worker is stopped right after it started).
 */
export async function settleQueueConnections(queue: Queue, timeoutMs = 2000): Promise<void> {
  const clients = (queue as unknown as { clients: QueueClient[] }).clients ?? [];
  const pending = clients.filter((client) => !['ready', 'end', 'close'].includes(client.status));
  if (pending.length === 0) {
    return;
  }
  let timer: NodeJS.Timeout | undefined;
  const settled = pending.map(
    (client) =>
      new Promise<void>((resolve) => {
        client.once('ready', resolve);
        client.once('end', resolve);
      }),
  );
  await Promise.race([
    Promise.all(settled),
    new Promise<void>((resolve) => {
      timer = setTimeout(resolve, timeoutMs);
    }),
  ]);
  clearTimeout(timer);
}
