/**
 * A merchant's own website on loopback, for the front-door tests: records what reaches it and
 * answers by path. Tests add or replace paths with `serve`.
 */
import { createHash } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

interface Seen {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
}

/** May be async (a streamed answer); a handler that fails ends the connection. */
type Handler = (req: IncomingMessage, res: ServerResponse) => unknown;

export interface StorefrontServer {
  origin: string;
  /** Requests received, in order. */
  seen: Seen[];
  serve(path: string, handler: Handler): void;
  close(): Promise<void>;
}

/** Reads a request body as it arrives and answers its length and SHA-256, with what the request looked like. */
export const echo: Handler = (req, res) => {
  const hash = createHash('sha256');
  let bytes = 0;
  req.on('data', (chunk: Buffer) => {
    bytes += chunk.length;
    hash.update(chunk);
  });
  req.on('end', () => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ method: req.method, url: req.url, headers: req.headers, bytes, sha256: hash.digest('hex') }));
  });
};

export async function startStorefront(name: string): Promise<StorefrontServer> {
  const seen: Seen[] = [];
  const routes = new Map<string, Handler>();
  const server = createServer((req, res) => {
    seen.push({ method: req.method!, url: req.url!, headers: req.headers });
    const route = routes.get(req.url!.split('?')[0]!);
    if (route) {
      Promise.resolve(route(req, res)).catch(() => res.destroy());
      return;
    }
    res.writeHead(404, { 'content-type': 'text/html' }).end(`<h1>${name}: no such page</h1>`);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  routes.set('/', (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'max-age=60', 'x-store': name });
    res.end(`<!doctype html><title>${name}</title><h1>Welcome to ${name}</h1>`);
  });
  routes.set('/echo', echo);
  return {
    origin,
    seen,
    serve: (path, handler) => routes.set(path, handler),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
