/**
 * `npm run woocommerce -- webhooks register --tenant ID`: creates the store's webhooks for a
 * tenant from its tenant file, and running it again changes nothing unless the store disabled one.
 */
import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_KEY, startWooSimulator, type WooSimulator } from '../../../simulators/woocommerce/server.js';
import { run } from '../../../scripts/woocommerce.js';
import { startReceiver, type WebhookReceiver } from '../../helpers/webhook-receiver.js';

let sim: WooSimulator;
let gateway: WebhookReceiver;
let configDir: string;
const env = () => ({
  CONFIG_DIR: configDir,
  WOO_KEY: DEFAULT_KEY.consumerKey,
  WOO_SECRET: DEFAULT_KEY.consumerSecret,
  WOO_WEBHOOK_SECRET: 'whsec-of-the-tenant',
});

async function command(args: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await run(args, { out: (l) => out.push(l), err: (l) => err.push(l) }, env());
  return { code, out, err };
}

beforeAll(async () => {
  sim = await startWooSimulator();
  gateway = await startReceiver();
  configDir = mkdtempSync(join(tmpdir(), 'woo-command-'));
  mkdirSync(join(configDir, 'tenants'));
  const base = gateway.url('').replace(/\/$/, '');
  writeFileSync(
    join(configDir, 'tenants', 'flowers.yaml'),
    [
      'id: flowers',
      'name: Petal & Stem',
      `base_url: ${base}`,
      'hosts: [flowers.example]',
      'adapter:',
      '  type: woocommerce',
      `  settings: { store_url: "${sim.url}" }`,
      '  credentials:',
      '    consumer_key: { env: WOO_KEY }',
      '    consumer_secret: { env: WOO_SECRET }',
      '    webhook_secret: { env: WOO_WEBHOOK_SECRET }',
      'capabilities: {}',
      '',
    ].join('\n'),
  );
  writeFileSync(
    join(configDir, 'tenants', 'demo.yaml'),
    [
      'id: demo',
      'name: Demo',
      'base_url: http://127.0.0.1:9',
      'hosts: [demo.example]',
      'adapter: { type: memory, settings: { data_dir: x, storefront_url: "http://x.example" } }',
      'capabilities: {}',
      '',
    ].join('\n'),
  );
});

afterAll(async () => {
  await sim?.close();
  await gateway?.close();
});

describe('webhooks register', () => {
  it("creates one webhook per topic to the tenant's backend webhook address, then keeps them", async () => {
    const first = await command(['webhooks', 'register', '--tenant', 'flowers']);
    expect(first.err).toEqual([]);
    expect(first.code).toBe(0);
    expect(first.out.slice(1, 6)).toEqual([
      expect.stringMatching(/^ {2}order\.created: webhook \d+ created$/),
      expect.stringMatching(/order\.updated: webhook \d+ created$/),
      expect.stringMatching(/order\.deleted: webhook \d+ created$/),
      expect.stringMatching(/product\.updated: webhook \d+ created$/),
      expect.stringMatching(/product\.deleted: webhook \d+ created$/),
    ]);
    const hooks = [...sim.store.webhooks.values()];
    expect(hooks.map((h) => [h.topic, h.deliveryUrl, h.secret, h.status])).toEqual(
      ['order.created', 'order.updated', 'order.deleted', 'product.updated', 'product.deleted'].map((t) => [
        t,
        gateway.url('/webhooks/backend'),
        'whsec-of-the-tenant',
        'active',
      ]),
    );
    // The store pinged each new webhook.
    expect(gateway.received.map((r) => r.body)).toEqual(hooks.map((h) => `webhook_id=${h.id}`));

    const again = await command(['webhooks', 'register', '--tenant', 'flowers']);
    expect(again.out.at(-1)).toBe('done: every webhook was already in place');
    expect(sim.store.webhooks.size).toBe(5);
  });

  it('re-activates a webhook the store disabled after failed deliveries', async () => {
    const disabled = [...sim.store.webhooks.values()].find((h) => h.topic === 'order.updated')!;
    disabled.status = 'disabled';
    const result = await command(['webhooks', 'register', '--tenant', 'flowers']);
    expect(result.out).toContain(`  order.updated: webhook ${disabled.id} reactivated`);
    expect(disabled.status).toBe('active');
  });

  it('says what is wrong with the command or the tenant', async () => {
    expect((await command(['webhooks', 'register'])).code).toBe(2);
    expect(await command(['webhooks', 'register', '--tenant', 'nobody'])).toMatchObject({
      code: 1,
      err: [expect.stringContaining('no tenant "nobody"')],
    });
    expect(await command(['webhooks', 'register', '--tenant', 'demo'])).toMatchObject({
      code: 1,
      err: [expect.stringContaining('is a memory tenant, not woocommerce')],
    });
  });
});
