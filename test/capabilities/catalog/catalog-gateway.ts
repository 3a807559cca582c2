/**
 * The catalog as an agent sees it: an in-process gateway over the demo flower shop (the real
 * memory adapter and config/demo), a fixed clock, and `call`, which sends one request over REST
 * and over MCP, checks that both answer the same, and validates the body against its schema.
 */
import { join } from 'node:path';
import type { TSchema } from '@sinclair/typebox';
import { expect } from 'vitest';
import type { Adapter } from '../../../adapters/contract.js';
import { createMemoryAdapter, type MemoryAdapter } from '../../../adapters/memory/index.js';
import { CatalogErrorResponse, GetProductResponse, LookupResponse, SearchResponse } from '../../../schemas/catalog.js';
import type { GatewaySecret } from '../../../src/config/gateway-secret.js';
import type { TenantConfig } from '../../../src/config/tenant-schema.js';
import { MemoryStore } from '../../../src/state/memory-store.js';
import { compile } from '../../../schemas/validator.js';
import { testGateway, type TestGateway } from '../../helpers/gateway.js';
import { ALL_CAPABILITIES, platformProfile } from '../../helpers/platform.js';

/** 2026-03-10T12:00:00Z, as in the demo store's own tests. */
const NOW = Date.parse('2026-03-10T12:00:00Z');

export type CatalogOperation = 'search_catalog' | 'lookup_catalog' | 'get_product';

const PATHS: Record<CatalogOperation, string> = {
  search_catalog: '/catalog/search',
  lookup_catalog: '/catalog/lookup',
  get_product: '/catalog/product',
};

const validators = new Map<TSchema, ReturnType<typeof compile>>();

/** Fails the test with the JSON path when `body` does not match `schema`. */
function expectSchema(schema: TSchema, body: unknown): void {
  let validate = validators.get(schema);
  if (!validate) {
    validate = compile(schema);
    validators.set(schema, validate);
  }
  const result = validate(body);
  expect(result.ok ? 'valid' : result.message).toBe('valid');
}

function responseSchema(op: CatalogOperation, body: { proto?: { status?: string } }): TSchema {
  if (body.proto?.status === 'error') return CatalogErrorResponse;
  return op === 'search_catalog' ? SearchResponse : op === 'lookup_catalog' ? LookupResponse : GetProductResponse;
}

/** The platform's profile without the fulfillment extension, served beside the full one. */
export const NO_FULFILLMENT = '/profiles/no-fulfillment';

interface CallOptions {
  /** Profile path on the test platform (default: every capability). */
  profile?: string;
  /** Extra request headers (Accept-Language) and the peer's address (REST only). */
  headers?: Record<string, string>;
  remoteAddress?: string;
}

// Bodies are whatever the operation returned; tests read them as an agent would.
export type Body = any;

interface CallResult {
  status: number;
  body: Body;
}

export interface CatalogGateway {
  gw: TestGateway;
  adapter: MemoryAdapter;
  clock: { now: number };
  /** REST and MCP, checked for parity; a 200 body is validated against its response schema. */
  call(op: CatalogOperation, payload: unknown, options?: CallOptions): Promise<CallResult>;
  rest(op: CatalogOperation, payload: unknown, options?: CallOptions): Promise<CallResult>;
  /** The raw JSON-RPC answer of a tools/call. */
  mcp(op: CatalogOperation, args: Record<string, unknown>): Promise<Body>;
  close(): Promise<void>;
}

export interface CatalogGatewayOptions {
  tenant?: Partial<TenantConfig>;
  /** Wraps the demo adapter (counting calls, notifying catalog changes). */
  wrap?: (adapter: MemoryAdapter) => Adapter;
  secret?: GatewaySecret;
}

export async function catalogGateway(options: CatalogGatewayOptions = {}): Promise<CatalogGateway> {
  const clock = { now: NOW };
  const adapter = await createMemoryAdapter({
    dataDir: join(process.cwd(), 'config/demo'),
    storefrontUrl: 'https://flowers.example/store',
    now: () => clock.now,
    store: new MemoryStore(),
    tenantId: 'shop',
  });
  const gw = await testGateway({
    adapter: options.wrap ? options.wrap(adapter) : adapter,
    now: () => clock.now,
    ...(options.tenant && { tenant: options.tenant }),
    ...(options.secret && { secret: options.secret }),
  });
  gw.platform.serve(NO_FULFILLMENT, platformProfile(ALL_CAPABILITIES.filter((c) => c !== 'dev.proto.shopping.fulfillment')));

  const rest = async (
    op: CatalogOperation,
    payload: unknown,
    { profile, headers, remoteAddress }: CallOptions = {},
  ): Promise<CallResult> => {
    const res = await gw.app.inject({
      method: 'POST',
      url: PATHS[op],
      headers: gw.headers({ ...(profile && { 'proto-agent': gw.platform.agent(profile) }), ...headers }),
      payload: JSON.stringify(payload),
      ...(remoteAddress && { remoteAddress }),
    });
    return { status: res.statusCode, body: res.json() };
  };

  const mcp = async (op: CatalogOperation, args: Record<string, unknown>) => {
    const res = await gw.app.inject({
      method: 'POST',
      url: '/mcp',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      payload: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: op, arguments: args } }),
    });
    return res.json();
  };

  return {
    gw,
    adapter,
    clock,
    rest,
    mcp,
    async call(op, payload, callOptions = {}) {
      const meta = { 'proto-agent': { profile: gw.platform.url(callOptions.profile) } };
      const [viaRest, viaMcp] = [await rest(op, payload, callOptions), await mcp(op, { meta, catalog: payload })];
      if (viaRest.status === 200) {
        expect(viaMcp.result?.structuredContent, 'MCP gives the REST body').toEqual(viaRest.body);
        expectSchema(responseSchema(op, viaRest.body), viaRest.body);
      } else {
        expect(viaMcp.error, 'MCP gives the REST error').toMatchObject({
          code: viaRest.status === 400 ? -32602 : expect.any(Number),
          message: viaRest.body.content,
          data: { code: viaRest.body.code, http_status: viaRest.status },
        });
      }
      return viaRest;
    },
    close: () => gw.close(),
  };
}

/** Product ids of a search or lookup body, in order. */
export const productIds = (body: Body): string[] => body.products.map((p: { id: string }) => p.id);
