/**
 * The stores the adapter benches and call-count tests run against, each with the tenant file of
 * a gateway in front of it: the Shopify and WooCommerce simulators and the reference REST store
 * in this process, and a seeded Medusa server (already running: its own process).
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseDocument } from 'yaml';
import { createRestStore } from '../../examples/rest-store/server.js';
import type { MedusaSeed } from '../../scripts/medusa-store.js';
import { startShopifySimulator } from '../../simulators/shopify/server.js';
import { simulatedTenantEnv, simulatedTenantYaml } from '../../simulators/shopify/tenant-file.js';
import { ALL_CAPABILITIES_YAML } from '../../simulators/tenant-capabilities.js';
import { DEFAULT_KEY, startWooSimulator } from '../../simulators/woocommerce/server.js';
import { tenantFile as wooTenantFile } from '../../simulators/woocommerce/tenant-file.js';
import type { GatewayClient, ScenarioOptions } from './scenario.js';

export const ADAPTERS = ['shopify', 'woocommerce', 'rest', 'medusa'] as const;
export type AdapterName = (typeof ADAPTERS)[number];

export interface Target {
  name: AdapterName;
  tenantYaml: string;
  env: Record<string, string>;
  /** Latency added to every store call from now on (none on Medusa: its own time is the store time). */
  setLatency(ms: number): void;
  /**
   * The names of the calls the store received since the last time asked (GraphQL operation names
   * on Shopify, where every call is a POST to one path); absent: the probe's method and path.
   */
  callNames?(): string[];
  /** The scenario's inputs, read through the gateway where the store's ids are not known in advance. */
  scenario(client: GatewayClient): Promise<ScenarioOptions>;
  close(): Promise<void>;
  /**
   * What the store can serve, when less than the bench's defaults: unmeasured requests per
   * operation and requests a second at rate (BENCH_WARMUP and BENCH_RATE override both).
   */
  pace?: { warmup: number; rate: number };
}

const BASE = 'http://127.0.0.1';
const QUERIES = ['rose', 'bouquet', 'tee', 'orchid', 'card'];

export async function shopifyTarget(): Promise<Target> {
  const sim = await startShopifySimulator({ shopDomain: 'petal-and-stem-bench.myshopify.com' });
  return {
    name: 'shopify',
    tenantYaml: simulatedTenantYaml({ id: 'shopify', baseUrl: BASE, apiOrigin: sim.url, shop: sim.shopDomain }),
    env: simulatedTenantEnv(sim.credentials),
    setLatency: (ms) => (sim.latencyMs = ms),
    callNames() {
      const names = sim.calls.map((c) => c.operationName ?? '?');
      sim.resetCalls();
      return names;
    },
    async scenario(client) {
      const found = await client.call('POST', '/catalog/search', { query: 'roses' });
      return { lines: [{ item: { id: found.products[0].variants[0].id }, quantity: 2 }], finishing: 'handoff', queries: QUERIES };
    },
    close: () => sim.close(),
  };
}

export async function woocommerceTarget(): Promise<Target> {
  const sim = await startWooSimulator();
  return {
    name: 'woocommerce',
    tenantYaml: wooTenantFile(BASE, sim.url, 'gateway_charged'),
    env: { WOO_CONSUMER_KEY: DEFAULT_KEY.consumerKey, WOO_CONSUMER_SECRET: DEFAULT_KEY.consumerSecret, WOO_WEBHOOK_SECRET: 'bench' },
    setLatency: (ms) => sim.controls.setLatency(ms),
    async scenario() {
      const roses = sim.controls.idOf('bouquet_roses');
      // Every completion takes 2 from the stock (the demo's 1,000 lasts 500 orders): enough for any run's.
      sim.controls.setStock(roses, 1_000_000);
      const lines = [{ item: { id: String(roses) }, quantity: 2 }];
      return { lines, finishing: 'gateway_charged', queries: QUERIES };
    },
    close: () => sim.close(),
  };
}

/** config/rest-demo's flowers tenant (generic REST adapter, JSONata mappings) in front of the reference store. */
export async function restTarget(): Promise<Target> {
  const apiKey = { id: 'flowers-gateway', secret: 'bench-store-api-secret' };
  const store = await createRestStore({
    dataDir: resolve('config/demo'),
    apiKey,
    webhookSecret: 'bench-store-webhook-secret',
    controls: true,
  });
  await store.listen(0);
  // The measured checkout's own tenant file (BENCH_GATEWAY_ROOT): an older gateway refuses settings newer than it.
  const tenantFile = resolve(process.env.BENCH_GATEWAY_ROOT ?? '.', 'config/rest-demo/tenants/flowers.yaml');
  const doc = parseDocument(readFileSync(tenantFile, 'utf8'));
  doc.setIn(['base_url'], BASE);
  doc.setIn(['adapter', 'settings', 'base_url'], `${store.origin}/api/v2`);
  doc.setIn(['adapter', 'settings', 'storefront_url'], store.origin);
  return {
    name: 'rest',
    tenantYaml: doc.toString(),
    env: { FLOWERS_STORE_API_SECRET: apiKey.secret, FLOWERS_STORE_WEBHOOK_SECRET: 'bench-store-webhook-secret' },
    setLatency: (ms) => (store.faults.latencyMs = ms),
    async scenario() {
      return { lines: [{ item: { id: 'bouquet_roses' }, quantity: 2 }], finishing: 'gateway_charged', queries: QUERIES };
    },
    close: () => store.app.close(),
  };
}

/** A seeded Medusa server at `url` (scripts/medusa-store.ts), gateway_charged. */
export function medusaTarget(url: string, seed: MedusaSeed, secretKeyFile: string): Target {
  return {
    name: 'medusa',
    tenantYaml: `id: medusa
name: Petal & Stem (Medusa)
base_url: ${BASE}
adapter:
  type: medusa
  finishing: gateway_charged
  order_poll_seconds: 86400
  settings:
    backend_url: ${url}
    storefront_url: https://petal-and-stem.example
    region_id: ${seed.regionId}
    sales_channel_id: ${seed.salesChannelId}
  credentials:
    publishable_key: { env: MEDUSA_PUBLISHABLE_KEY }
    secret_key: { file: ${secretKeyFile} }
${ALL_CAPABILITIES_YAML}payment_handlers:
  - { id: sandbox, name: dev.proto.payments.sandbox, type: sandbox, instruments: [card] }
checkout:
  required_buyer_fields: [email]
policies:
  allow_loopback_profiles: true
  backend: { timeout_ms: 30000 }
signing:
  ephemeral_key: true
`,
    env: { MEDUSA_PUBLISHABLE_KEY: seed.publishableKey },
    setLatency: () => undefined,
    // Medusa shares the bench's two cores and takes 90-150 ms over a create_cart or create_checkout
    // alone: at 20/s its queue, not the gateway, made the at-rate columns (seconds long, stop 37).
    pace: { warmup: 100, rate: 5 },
    async scenario() {
      const lines = [
        { item: { id: seed.variants.bouquet_roses! }, quantity: 2 },
        { item: { id: seed.variants.pot_ceramic! }, quantity: 1 },
      ];
      return { lines, finishing: 'gateway_charged', queries: QUERIES };
    },
    close: async () => undefined,
  };
}
