import { createConnection, createServer, Server, Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { closeAtFileEnd } from '../../support/open-contexts';

/**
 * A loopback TCP proxy in front of a real service (Redis here). `cut()` drops every connection
 * and refuses new ones, as an outage would; `restore()` lets traffic through again.
 */
export class TcpProxy {
  private server: Server | undefined;
  private forget: (() => void) | undefined;
  private readonly sockets = new Set<Socket>();
  private down = false;
  port = 0;

  constructor(
    private readonly targetHost: string,
    private readonly targetPort: number,
  ) {}

  async start(): Promise<this> {
    this.server = createServer((client) => {
      if (this.down) {
        client.destroy();
        return;
      }
      const upstream = createConnection({ host: this.targetHost, port: this.targetPort });
      for (const s of [client, upstream]) {
        this.sockets.add(s);
        s.on('close', () => this.sockets.delete(s));
        s.on('error', () => undefined);
      }
      client.pipe(upstream).pipe(client);
      client.on('close', () => upstream.destroy());
      upstream.on('close', () => client.destroy());
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.forget = closeAtFileEnd(() => this.stop());
    this.port = (this.server.address() as AddressInfo).port;
    return this;
  }

  cut(): void {
    this.down = true;
    for (const s of this.sockets) {
      s.destroy();
    }
  }

  restore(): void {
    this.down = false;
  }

  async stop(): Promise<void> {
    this.forget?.();
    this.cut();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}
