/**
 * The reference store (examples/rest-store) for tests: started in-process on 127.0.0.1, port 0,
 * with test credentials and its controls on, plus a client that signs calls the way the store
 * wants (for tests that act as the merchant: ship an order, look at carts).
 */
import { createHmac } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { createRestAdapter, type RestAdapter } from '../../adapters/rest/index.js';
import { RestSettings } from '../../adapters/rest/settings.js';
import type { TenantConfig } from '../../src/config/tenant-schema.js';
import { answerProblem, type CheckedMethod } from '../../src/tenancy/adapter-answers.js';
import { compile } from '../../schemas/validator.js';
import { stringToSign } from '../../examples/rest-store/auth.js';
import { createRestStore, type RestStore, type RestStoreOptions } from '../../examples/rest-store/server.js';

export const STORE_KEY = { id: 'flowers-gateway', secret: 'store-api-secret-for-tests' };
export const STORE_WEBHOOK_SECRET = 'store-webhook-secret-for-tests';

export interface TestRestStore extends RestStore {
  /** A signed API call; answers status and parsed body. */
  call(method: string, path: string, body?: unknown): Promise<{ status: number; body: any }>;
  control(method: string, path: string, body?: unknown): Promise<any>;
}

export async function startRestStore(options: Partial<RestStoreOptions> = {}): Promise<TestRestStore> {
  const store = await createRestStore({
    dataDir: join(process.cwd(), 'config/demo'),
    apiKey: STORE_KEY,
    webhookSecret: STORE_WEBHOOK_SECRET,
    controls: true,
    webhookRetryDelaysMs: [50, 100],
    ...options,
  });
  await store.listen(0);
  const now = options.now ?? Date.now;
  const call = async (method: string, path: string, body?: unknown) => {
    const text = body === undefined ? '' : JSON.stringify(body);
    const timestamp = String(Math.floor(now() / 1000));
    const target = `/api/v2${path}`;
    const response = await fetch(store.origin + target, {
      method,
      headers: {
        ...(body !== undefined && { 'content-type': 'application/json' }),
        'x-shop-key': STORE_KEY.id,
        'x-shop-timestamp': timestamp,
        'x-shop-signature': createHmac('sha256', STORE_KEY.secret)
          .update(stringToSign(timestamp, method, target, text))
          .digest('hex'),
      },
      ...(body !== undefined && { body: text }),
    });
    const raw = await response.text();
    return { status: response.status, body: raw ? JSON.parse(raw) : undefined };
  };
  const control = async (method: string, path: string, body?: unknown) => {
    const response = await fetch(`${store.origin}/_control${path}`, {
      method,
      ...(body !== undefined && { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
    });
    return response.json();
  };
  return Object.assign(store, { call, control });
}

/** config/rest-demo/tenants/flowers.yaml, as the gateway would load it, pointed at `store`. */
export function flowersTenant(store: { origin: string }, baseUrl = 'http://127.0.0.1:8080', tenantFile = FLOWERS_FILE): TenantConfig {
  const file = resolve(tenantFile);
  const config = parseYaml(readFileSync(file, 'utf8')) as TenantConfig;
  config.base_url = baseUrl;
  config.adapter.settings = { ...config.adapter.settings, base_url: `${store.origin}/api/v2`, storefront_url: store.origin };
  return config;
}

export const FLOWERS_FILE = 'config/rest-demo/tenants/flowers.yaml';

/**
 * flowers.yaml's settings as for a store that knows orders only by its own references and lines
 * only by its own ids and SKUs: the gateway's reference never reaches it (checkout link, order),
 * the mappings name the store's cart (`storeReference`) instead and find orders by it
 * (`GET /orders?cart_id=`), and order lines carry no checkout line id.
 */
export function storeReferencesOnly(): Record<string, unknown> {
  const settings = (parseYaml(readFileSync(resolve(FLOWERS_FILE), 'utf8')) as TenantConfig).adapter.settings as Record<string, any>;
  const ops = settings.operations;
  return {
    capabilities: { ...settings.capabilities, order_links: ['store_reference'] },
    functions: {
      ...settings.functions,
      order: (settings.functions.order as string).replace('"checkoutLineId": line_ref ? line_ref, ', ''),
    },
    operations: {
      ...ops,
      checkout_url: { ...ops.checkout_url, body: '{}' },
      place_order: { ...ops.place_order, body: (ops.place_order.body as string).replace('"reference": reference, ', '') },
      find_order: {
        ...ops.find_order,
        query: 'storeReference or handle ? {"cart_id": storeReference ? storeReference : handle} : {"reference": reference}',
      },
    },
  };
}
/** The same shop through the reference store's cart-side API (steps, mapping files). */
export const FLOWERS_CART_FILE = 'examples/rest-tenants/tenants/flowers-cart.yaml';
/** The same shop stateless: no backend handle, no checkout page. */
export const FLOWERS_STATELESS_FILE = 'examples/rest-tenants/tenants/flowers-stateless.yaml';
const FLOWERS_CREDENTIALS = { api_secret: STORE_KEY.secret, webhook_secret: STORE_WEBHOOK_SECRET };

/** The REST adapter of the flowers tenant on `store`, built as the gateway builds it. */
export async function flowersAdapter(
  store: { origin: string },
  now: () => number = Date.now,
  settings: Record<string, unknown> = {},
  tenantFile = FLOWERS_FILE,
): Promise<RestAdapter> {
  const config = flowersTenant(store, undefined, tenantFile);
  const checked = compile<RestSettings>(RestSettings)({ ...config.adapter.settings, ...settings });
  if (!checked.ok) throw new Error(checked.message);
  return createRestAdapter(checked.value, {
    credentials: FLOWERS_CREDENTIALS,
    where: tenantFile,
    tenantId: config.id,
    now,
    answerProblem: (method, answer) => answerProblem(method as CheckedMethod, answer),
  });
}
