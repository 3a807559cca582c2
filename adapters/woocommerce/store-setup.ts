/**
 * What the store says about its setup, for operators' checks: its WooCommerce release
 * (`wc/v3/system_status`, `environment.version`) against the oldest one the adapter works with,
 * and its webhooks (`wc/v3/webhooks`) with where each delivers and whether the store still sends it.
 */
import type { ApiVersionStatus, StoreSetup } from '../contract.js';
import { unexpected, type WooHttp } from './http.js';
import { expectShape, WcEnvironment } from './wc-shapes.js';
import { listWebhooks, WEBHOOK_TOPICS } from './webhook-setup.js';

/** Cart writes with a Cart-Token and no nonce are accepted since 9.3.0 (docs/adapters/woocommerce.md, "What the store needs"). */
const OLDEST_RELEASE = '9.3.0';

/** Release numbers compared part by part (10.2.0 > 9.3.0); a suffix such as `-beta.1` is ignored. */
function atLeast(version: string, oldest: string): boolean {
  const parts = (v: string) =>
    v
      .split('-')[0]!
      .split('.')
      .map((n) => Number.parseInt(n, 10) || 0);
  const [a, b] = [parts(version), parts(oldest)];
  for (let i = 0; i < Math.max(a.length, b.length); i++) if ((a[i] ?? 0) !== (b[i] ?? 0)) return (a[i] ?? 0) > (b[i] ?? 0);
  return true;
}

async function apiVersion(http: WooHttp, signal?: AbortSignal): Promise<ApiVersionStatus> {
  const what = 'GET wc/v3/system_status';
  const response = await http.rest('GET', 'system_status', { params: { _fields: 'environment.version' } }, signal);
  if (response.status !== 200) throw unexpected(what, response.body);
  const { version } = expectShape(WcEnvironment, response.body, what).environment;
  return atLeast(version, OLDEST_RELEASE)
    ? { version, supported: true, detail: `WooCommerce ${version} (REST API wc/v3, Store API wc/store/v1)` }
    : {
        version,
        supported: false,
        detail:
          `WooCommerce ${version} is older than ${OLDEST_RELEASE}, which the adapter needs ` +
          '(cart writes without a nonce); update the store',
      };
}

export function storeSetup(http: WooHttp): StoreSetup {
  return {
    apiVersion: (signal) => apiVersion(http, signal),
    webhooks: async (signal) => ({
      needed: WEBHOOK_TOPICS,
      registered: (await listWebhooks(http, signal)).map((w) => ({ topic: w.topic, url: w.delivery_url, active: w.status === 'active' })),
    }),
  };
}
