/**
 * The store calls each protocol request makes, seen from inside the gateway's process: the
 * request's async context is entered where Fastify starts its handler, and every outgoing HTTP
 * call made in that context (fetch/undici and node:http, which between them carry every
 * adapter's client) is recorded against the request's Request-Id with when it started and ended.
 * Attribution follows the async context, so it holds with many requests in flight at once.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import dc from 'node:diagnostics_channel';

export interface StoreCall {
  label: string;
  at: number;
  end?: number;
}

interface Tracked {
  calls: StoreCall[];
}

const now = () => performance.now();
/** GraphQL calls by their operation's name (`CartCreate`), other calls by method and path. */
function label(method: string | undefined, path: string | undefined, body: unknown): string {
  const text = typeof body === 'string' ? body : body instanceof Uint8Array ? Buffer.from(body).toString('utf8') : '';
  const operation = /^\{"query":"(?:query|mutation) (\w+)/.exec(text)?.[1] ?? /"operationName":"(\w+)"/.exec(text)?.[1];
  return operation ?? `${method ?? 'GET'} ${(path ?? '/').split('?')[0]}`;
}

export class StoreProbe {
  private readonly context = new AsyncLocalStorage<Tracked>();
  private readonly byRequest = new Map<string, Tracked>();
  private readonly open = new WeakMap<object, StoreCall>();
  private readonly subscriptions: Array<[string, (message: unknown) => void]> = [];

  constructor() {
    this.on('tracing:fastify.request.handler:start', (m) => {
      const id = (m as { request: { headers: Record<string, unknown> } }).request.headers['request-id'];
      if (typeof id !== 'string') return;
      const tracked = this.byRequest.get(id) ?? { calls: [] };
      this.byRequest.set(id, tracked);
      this.context.enterWith(tracked);
    });
    this.on('undici:request:create', (m) => {
      const { request } = m as { request: { method?: string; path?: string; body?: unknown } };
      this.start(request, label(request.method, request.path, request.body));
    });
    this.on('undici:request:trailers', (m) => this.finish((m as { request: object }).request));
    this.on('undici:request:error', (m) => this.finish((m as { request: object }).request));
    this.on('http.client.request.start', (m) => {
      const { request } = m as { request: { method?: string; path?: string; once(e: string, f: () => void): void } };
      if (this.start(request, label(request.method, request.path, undefined))) request.once('close', () => this.finish(request));
    });
  }

  private on(channel: string, handler: (message: unknown) => void): void {
    dc.subscribe(channel, handler);
    this.subscriptions.push([channel, handler]);
  }

  private start(request: object, name: string): boolean {
    const tracked = this.context.getStore();
    if (!tracked) return false;
    const call: StoreCall = { label: name, at: now() };
    tracked.calls.push(call);
    this.open.set(request, call);
    return true;
  }

  private finish(request: object): void {
    const call = this.open.get(request);
    if (call && call.end === undefined) call.end = now();
  }

  /** The calls made for the request with this Request-Id (forgotten afterwards). */
  take(requestId: string): StoreCall[] {
    const calls = this.byRequest.get(requestId)?.calls ?? [];
    this.byRequest.delete(requestId);
    return calls;
  }

  close(): void {
    for (const [channel, handler] of this.subscriptions) dc.unsubscribe(channel, handler);
  }
}

/** Time covered by store calls, a call still open counting until `until` (overlapping calls count once). */
export function storeTime(calls: StoreCall[], until: number): number {
  const spans = calls.map((c) => [c.at, c.end ?? until] as const).sort((a, b) => a[0] - b[0]);
  let covered = 0;
  let reach = -Infinity;
  for (const [start, end] of spans) {
    if (end <= reach) continue;
    covered += end - Math.max(start, reach);
    reach = end;
  }
  return covered;
}
