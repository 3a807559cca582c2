/**
 * The host example: an agent's web page on its own origin that shows the merchant's cart or
 * checkout inside its window. This server plays the agent's backend: it serves the page, the
 * agent's profile (the gateway fetches it to negotiate), and creates sessions through the
 * gateway's REST API, the way any platform does; the page (public/host.js) frames the session's
 * continue_url in a sandboxed, credentialless iframe and speaks the embedded protocol with it.
 */
import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join, resolve } from 'node:path';

export interface HostOptions {
  port: number;
  host?: string;
  /** The gateway's REST endpoint, e.g. http://127.0.0.1:8080. */
  gateway: string;
  /**
   * An API key the business issued to this agent (`npm run keys -- api-key create`): sent with the
   * sessions it creates, and handed to the embedded page when the business requires a credential
   * there too (ready's `auth`, `ec.auth` / `ep.cart.auth`).
   */
  apiKey?: string;
}

export interface HostServer {
  origin: string;
  close(): Promise<void>;
}

const PUBLIC = resolve('examples/embedded-host/public');
const STATIC: Record<string, string> = {
  '/': 'index.html',
  '/index.html': 'index.html',
  '/host.js': 'host.js',
  '/host.css': 'host.css',
};
const TYPES: Record<string, string> = {
  html: 'text/html; charset=utf-8',
  js: 'text/javascript; charset=utf-8',
  css: 'text/css; charset=utf-8',
};
const CAPABILITIES = ['cart', 'checkout', 'discount', 'fulfillment', 'order'].map((name) => `dev.proto.shopping.${name}`);
/** What the example buys when the page does not say: two bouquets of the demo flower shop. */
const DEFAULT_ITEMS = [{ item: { id: 'bouquet_roses' }, quantity: 2 }];

export async function startHost(options: HostOptions): Promise<HostServer> {
  let origin = '';
  const gateway = options.gateway.replace(/\/+$/, '');
  const server: Server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => send(res, 502, { error: (error as Error).message }));
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = new URL(req.url ?? '/', 'http://host').pathname;
    if (req.method === 'GET' && path === '/.well-known/proto') {
      const profile = {
        proto: { version: '2026-04-08', capabilities: Object.fromEntries(CAPABILITIES.map((c) => [c, [{ version: '2026-04-08' }]])) },
      };
      return send(res, 200, profile);
    }
    if (req.method === 'POST' && path === '/api/sessions') return createSession(req, res);
    // The agent's page asks its own backend for the credential the embedded page asked it for.
    if (req.method === 'POST' && path === '/api/credential') {
      return options.apiKey ? send(res, 200, { type: 'api_key', credential: options.apiKey }) : send(res, 404, { error: 'no credential' });
    }
    const file = STATIC[path];
    if (req.method !== 'GET' || !file) return send(res, 404, { error: 'not found' });
    const body = await readFile(join(PUBLIC, file));
    res.writeHead(200, {
      'content-type': TYPES[file.split('.').pop()!]!,
      'cache-control': 'no-store',
      'x-content-type-options': 'nosniff',
    });
    res.end(body);
  }

  /** Creates a cart or checkout at the gateway as this agent and answers with the gateway's body. */
  async function createSession(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const asked = JSON.parse((await readBody(req)) || '{}') as { kind?: string; line_items?: unknown };
    const kind = asked.kind === 'cart' ? 'cart' : 'checkout';
    const response = await fetch(`${gateway}/${kind === 'cart' ? 'carts' : 'checkout-sessions'}`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'proto-agent': `profile="${origin}/.well-known/proto"`,
        'request-id': randomUUID(),
        'idempotency-key': randomUUID(),
        ...(options.apiKey && { 'x-api-key': options.apiKey }),
      },
      body: JSON.stringify({ line_items: Array.isArray(asked.line_items) ? asked.line_items : DEFAULT_ITEMS }),
    });
    const body = (await response.json()) as { continue_url?: unknown };
    const warning = typeof body.continue_url === 'string' ? await framingRefused(gateway, body.continue_url, origin) : undefined;
    if (warning) process.stderr.write(`demo:host: ${warning}\n`);
    send(res, response.status, body, warning);
  }

  await new Promise<void>((done, fail) => {
    server.once('error', fail);
    server.listen(options.port, options.host ?? '127.0.0.1', done);
  });
  origin = `http://${options.host ?? '127.0.0.1'}:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    close: () => new Promise<void>((done) => server.close(() => done())),
  };
}

function send(res: ServerResponse, status: number, body: unknown, warning?: string): void {
  const headers = { 'content-type': 'application/json', 'cache-control': 'no-store', ...(warning && { 'host-warning': warning }) };
  res.writeHead(status, headers).end(JSON.stringify(body));
}

/**
 * Why the browser would refuse to frame the page, read from its own `frame-ancestors`: a host on
 * another port than the tenant allows (HOST_PORT) otherwise shows an empty frame and no reason.
 */
async function framingRefused(gateway: string, pageUrl: string, origin: string): Promise<string | undefined> {
  // Asked where this host reaches the gateway: the page's public address may not resolve from here.
  const { pathname, search } = new URL(pageUrl);
  const page = await fetch(`${gateway}${pathname}${search}`).catch(() => undefined);
  const policy = page?.headers.get('content-security-policy') ?? '';
  await page?.body?.cancel();
  const ancestors = /frame-ancestors ([^;]*)/.exec(policy)?.[1]?.trim().split(/\s+/);
  if (!ancestors || ancestors.includes(origin)) return undefined;
  return (
    `the gateway lets only ${ancestors.join(', ')} frame its pages, not this host (${origin}): ` +
    `run demo:host with HOST_PORT=9100, or add ${origin} to the tenant's embedded.host_origins`
  );
}

async function readBody(req: IncomingMessage): Promise<string> {
  let body = '';
  for await (const chunk of req) {
    body += String(chunk);
    if (body.length > 65_536) throw new Error('request body too large');
  }
  return body;
}
