/**
 * A platform's webhook endpoint, run by the test on loopback: it records every request exactly
 * as received (raw body bytes, headers), answers with the status the test sets, and can go down
 * (stop listening) and come back up on the same port.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { vi } from 'vitest';

export interface ReceivedWebhook {
  method: string;
  /** Path and query as requested. */
  target: string;
  headers: IncomingHttpHeaders;
  body: string;
}

export interface WebhookReceiver {
  /** Absolute URL of `path` on this receiver. */
  url(path?: string): string;
  readonly received: ReceivedWebhook[];
  /** The status answered from now on (200 at first). */
  answer(status: number): void;
  /** Waits until at least `count` requests arrived; returns them all. */
  waitFor(count: number): Promise<ReceivedWebhook[]>;
  down(): Promise<void>;
  up(): Promise<void>;
  close(): Promise<void>;
}

export const WEBHOOK_PATH = '/hooks/orders?shop=flowers';

export async function startReceiver(): Promise<WebhookReceiver> {
  const received: ReceivedWebhook[] = [];
  let status = 200;
  let port = 0;
  let server: Server | undefined;

  const listen = async () => {
    if (server) return;
    server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        received.push({
          method: req.method ?? '',
          target: req.url ?? '',
          headers: req.headers,
          body: Buffer.concat(chunks).toString('utf8'),
        });
        res.writeHead(status, { 'content-type': 'text/plain' }).end(status < 300 ? 'ok' : 'not now');
      });
    });
    await new Promise<void>((resolve, reject) => server!.once('error', reject).listen(port, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  };
  const stop = () =>
    new Promise<void>((resolve) => {
      if (!server) return resolve();
      server.closeAllConnections();
      server.close(() => resolve());
      server = undefined;
    });
  await listen();

  return {
    url: (path = WEBHOOK_PATH) => `http://127.0.0.1:${port}${path}`,
    received,
    answer: (next) => (status = next),
    async waitFor(count) {
      await vi.waitFor(
        () => {
          if (received.length < count) throw new Error(`${received.length} of ${count} webhooks received`);
        },
        { timeout: 15_000, interval: 10 },
      );
      return received;
    },
    down: stop,
    up: listen,
    close: stop,
  };
}
