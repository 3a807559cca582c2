/**
 * The tenant's `embedded` section is validated (origins exactly as browsers serialize them, only
 * delegations the protocol defines), the demo tenant turns the transport on, and page calls draw
 * on the rate limits once each, by the client's address.
 */
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { resolveEmbedded } from '../../src/embedded/settings.js';
import { loadTenantFiles } from '../../src/config/load-tenants.js';
import { TenantConfig } from '../../src/config/tenant-schema.js';
import { compile } from '../../schemas/validator.js';
import { baseTenantConfig } from '../helpers/gateway.js';
import { line, type CheckoutGateway } from '../capabilities/checkout/checkout-gateway.js';
import { EMBEDDED, embeddedGateway, pageCall } from './embedded-gateway.js';

const validate = compile<TenantConfig>(TenantConfig);
const withEmbedded = (embedded: unknown) => validate({ ...baseTenantConfig, embedded });

describe('the embedded section', () => {
  it('accepts the documented shape and resolves its defaults', () => {
    expect(withEmbedded(EMBEDDED).ok).toBe(true);
    const minimal = { enabled: true, host_origins: ['https://agent.example'] };
    expect(withEmbedded(minimal).ok).toBe(true);
    expect(resolveEmbedded(minimal, 't.yaml')).toEqual({
      hostOrigins: ['https://agent.example'],
      delegate: { cart: [], checkout: [] },
      pageTtlMs: 3_600_000,
    });
    expect(resolveEmbedded({ ...minimal, enabled: false }, 't.yaml')).toBeUndefined();
    expect(resolveEmbedded(undefined, 't.yaml')).toBeUndefined();
  });

  it('refuses origins with a path, no origins, unknown delegations, cart delegations and odd lifetimes', () => {
    const refused = [
      { enabled: true, host_origins: ['https://agent.example/chat'] },
      { enabled: true, host_origins: [] },
      { enabled: true, host_origins: ['agent.example'] },
      { enabled: true, host_origins: ['https://agent.example'], delegate: { checkout: ['payment.everything'] } },
      { enabled: true, host_origins: ['https://agent.example'], delegate: { cart: ['payment.credential'] } },
      { enabled: true, host_origins: ['https://agent.example'], page_ttl_seconds: 5 },
      { enabled: 'yes', host_origins: ['https://agent.example'] },
      { enabled: true, host_origins: ['https://agent.example'], frame: 'any' },
    ];
    for (const embedded of refused) expect(withEmbedded(embedded).ok, JSON.stringify(embedded)).toBe(false);
  });

  it('refuses an origin that browsers would serialize differently', () => {
    for (const origin of ['https://Agent.example', 'https://agent.example:443', 'http://127.0.0.1:80']) {
      expect(() => resolveEmbedded({ enabled: true, host_origins: [origin] }, 't.yaml')).toThrow(
        /host_origins\[0\] must be an origin exactly as browsers serialize it/,
      );
    }
  });

  it('is on for the demo tenant, framed by the host example page', () => {
    const [demo] = loadTenantFiles(join(process.cwd(), 'config'));
    expect(demo!.config.embedded).toMatchObject({ enabled: true, host_origins: expect.arrayContaining(['http://127.0.0.1:9100']) });
    expect(resolveEmbedded(demo!.config.embedded, 'demo.yaml')?.delegate.checkout).toEqual([
      'payment.credential',
      'fulfillment.address_change',
    ]);
  });
});

describe('rate limits', () => {
  let gw: CheckoutGateway | undefined;
  afterEach(async () => {
    await gw?.close();
    gw = undefined;
  });

  it('count each page call once, on the budget of its address and the session owner', async () => {
    gw = await embeddedGateway({ tenant: { policies: { rate_limits: { per_caller: { max: 3, window_seconds: 60 } } } } });
    // The agent's unauthenticated create draws on the same budget: same address, same profile.
    const created = (await gw.client('rest').create({ line_items: [line('pot_ceramic')] })).body;
    expect((await pageCall(gw, created.continue_url, 'get_checkout')).status).toBe(200);
    expect((await pageCall(gw, created.continue_url, 'get_checkout')).status).toBe(200);
    const limited = await pageCall(gw, created.continue_url, 'get_checkout');
    expect(limited.status).toBe(429);
    expect(limited.body.code).toBe('rate_limited');
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    // Another address has its own budget.
    const elsewhere = await pageCall(gw, created.continue_url, 'get_checkout', undefined, { remoteAddress: '203.0.113.9' });
    expect(elsewhere.status).toBe(200);
  });
});
