/**
 * A platform (agent) served on loopback by the test: its profile at /.well-known/proto and
 * variants under /profiles/<name> for negotiation failures.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export const ALL_CAPABILITIES = [
  'dev.proto.shopping.catalog.search',
  'dev.proto.shopping.catalog.lookup',
  'dev.proto.shopping.cart',
  'dev.proto.shopping.checkout',
  'dev.proto.shopping.discount',
  'dev.proto.shopping.fulfillment',
  'dev.proto.shopping.order',
];

export function platformProfile(capabilities: string[] = ALL_CAPABILITIES, extra: Record<string, unknown> = {}, version = '2026-04-08') {
  return {
    proto: {
      version,
      capabilities: Object.fromEntries(capabilities.map((name) => [name, [{ version: '2026-04-08' }]])),
      ...extra,
    },
  };
}

type Route = (res: import('node:http').ServerResponse) => void;

export interface PlatformServer {
  origin: string;
  /** PROTO-Agent header value pointing at a profile path. */
  agent(path?: string): string;
  url(path?: string): string;
  /** Serve a JSON profile (or any handler) at a path. */
  serve(path: string, body: Route | object, headers?: Record<string, string>): void;
  hits(path: string): number;
  close(): Promise<void>;
}

export async function startPlatform(profile: object = platformProfile()): Promise<PlatformServer> {
  const routes = new Map<string, Route>();
  const hits = new Map<string, number>();
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0]!;
    hits.set(path, (hits.get(path) ?? 0) + 1);
    const route = routes.get(path);
    if (!route) {
      res.writeHead(404).end();
      return;
    }
    route(res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const platform: PlatformServer = {
    origin,
    url: (path = '/.well-known/proto') => `${origin}${path}`,
    agent: (path = '/.well-known/proto') => `profile="${origin}${path}"`,
    serve(path, body, headers = {}) {
      routes.set(
        path,
        typeof body === 'function'
          ? (body as Route)
          : (res) => res.writeHead(200, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body)),
      );
    },
    hits: (path) => hits.get(path) ?? 0,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  platform.serve('/.well-known/proto', profile);
  return platform;
}
