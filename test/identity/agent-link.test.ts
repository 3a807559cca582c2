/**
 * `npm run agent -- link --tenant demo` (scripts/agent.ts, scripts/agent-link.ts) against a
 * gateway listening on loopback: the demo tenant's file gives the public client, the agent prints
 * the URL, a buyer signs in over HTTP, the agent takes the loopback redirect (state and iss
 * checked, PKCE S256), exchanges the code and reads the buyer's order with the token alone.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { linkAccount } from '../../scripts/agent-link.js';
import { run } from '../../scripts/agent.js';
import { freePort } from '../../scripts/free-port.js';
import { ORDER_READ } from '../../src/security/auth/scopes.js';
import { MemoryStore } from '../../src/state/memory-store.js';
import { loadTenants } from '../../src/tenancy/load.js';
import { orderGateway, type OrderGateway } from '../helpers/order-gateway.js';
import { startPlatform, type PlatformServer } from '../helpers/platform.js';
import { signInOverHttp } from './helpers/http-buyer.js';

const JANE = { email: 'jane.smith@example.com', password: 'demo-flowers' };

let gw: OrderGateway;
let placer: PlatformServer;
let origin: string;
let configDir: string;
/** The demo tenant file's identity linking section, with the test agent's profile. */
let linking: { clients: Array<Record<string, unknown>> };

beforeAll(async () => {
  const agent = await startPlatform();
  placer = await startPlatform();
  origin = `http://127.0.0.1:${await freePort()}`;
  // The shipped config, with this test's addresses: the gateway's and the agent's profile.
  configDir = mkdtempSync(join(tmpdir(), 'agent-link-'));
  cpSync('config/tenants', join(configDir, 'tenants'), { recursive: true });
  cpSync('config/demo', join(configDir, 'demo'), { recursive: true });
  const file = join(configDir, 'tenants/demo.yaml');
  const text = readFileSync(file, 'utf8').replace('http://127.0.0.1:9000/.well-known/proto', agent.url());
  writeFileSync(file, text);
  const demo = parse(text) as { capabilities: Record<string, object>; identity_linking: typeof linking };
  linking = demo.identity_linking;
  gw = await orderGateway({
    platform: agent,
    tenant: {
      base_url: origin,
      capabilities: { 'dev.proto.shopping.order': {}, 'dev.proto.common.identity_linking': {} },
      identity_linking: linking as never,
    },
  });
  await gw.app.listen({ port: Number(new URL(origin).port), host: '127.0.0.1' });
});
afterAll(async () => {
  await gw?.close();
  await gw?.platform.close();
  await placer?.close();
  rmSync(configDir, { recursive: true, force: true });
});

async function agent(args: string[], buyer?: (url: string) => Promise<unknown>) {
  const out: string[] = [];
  const err: string[] = [];
  let signedIn: Promise<unknown> = Promise.resolve();
  const io = {
    out: (line: string) => out.push(line),
    err: (line: string) => {
      err.push(line);
      if (buyer && line.startsWith(`${origin}/oauth2/authorize?`)) signedIn = buyer(line);
    },
  };
  const code = await run(args, io, { gateway: origin, profile: 'unused', keyFile: 'unused', configDir });
  await signedIn;
  return { code, out, err: err.join('\n') };
}

describe('the shipped demo tenant', () => {
  it('links buyer accounts with the store in memory and nothing else running (npm start)', async () => {
    const store = new MemoryStore();
    const registry = await loadTenants('config', { env: {}, now: Date.now, store, baseUrl: 'http://127.0.0.1:8080' });
    const demo = registry.tenants[0]!;
    expect(demo.identity?.issuer).toBe('http://127.0.0.1:8080');
    expect(demo.identity?.profileOf('example-agent')).toBe('http://127.0.0.1:9000/.well-known/proto');
    const linkingCapability = demo.profile.object.proto.capabilities?.['dev.proto.common.identity_linking'];
    expect(Object.keys((linkingCapability?.[0]?.config as { scopes: object }).scopes)).toContain(ORDER_READ);
    await registry.close();
    await store.close();
  });
});

describe('npm run agent -- link --tenant demo', () => {
  it("links Jane's account and reads her order placed through another platform, with her token alone", async () => {
    const orderId = await gw.placeOrder({ profileUrl: placer.url(), buyerId: 'cust_2' });
    const result = await agent(['link', '--tenant', 'demo', '--order', orderId], (url) => signInOverHttp(url, JANE));
    expect(result.err).toContain('Open this URL in a browser and sign in as a buyer of Demo Flower Shop');
    expect(result.code, result.err).toBe(0);
    expect(result.err).toContain(`linked: example-agent holds ${ORDER_READ} from ${origin}`);
    expect(JSON.parse(result.out[0]!)).toMatchObject({ id: orderId, proto: { status: 'success' } });
  });

  it('the URL asks for PKCE S256, a loopback redirect on an ephemeral port, a state; nothing is opened without --open', async () => {
    let asked: URL | undefined;
    const result = await agent(['link', '--tenant', 'demo'], async (url) => {
      asked = new URL(url);
      return signInOverHttp(url, JANE);
    });
    expect(result.code, result.err).toBe(0);
    expect(asked!.searchParams.get('code_challenge_method')).toBe('S256');
    expect(asked!.searchParams.get('code_challenge')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(asked!.searchParams.get('client_id')).toBe('example-agent');
    expect(asked!.searchParams.get('state')).toMatch(/^[A-Za-z0-9_-]{20,}$/);
    const redirect = new URL(asked!.searchParams.get('redirect_uri')!);
    expect(redirect.hostname).toBe('127.0.0.1');
    expect(Number(redirect.port)).toBeGreaterThan(0);
    expect(redirect.pathname).toBe('/callback');
  });

  it("exits 1 naming the order it may not read (another buyer's, placed elsewhere)", async () => {
    const notHers = await gw.placeOrder({ profileUrl: placer.url(), buyerId: 'cust_1' });
    const result = await agent(['link', '--tenant', 'demo', '--order', notHers], (url) => signInOverHttp(url, JANE));
    expect(result.code).toBe(1);
    expect(result.err).toContain(`order ${notHers}: unauthorized`);
  });

  it('refuses an unknown tenant, a tenant without a public client and bad arguments', async () => {
    expect((await agent(['link', '--tenant', 'nope'])).err).toContain('no tenant "nope"');
    expect((await agent(['link', '--tenant', 'demo', '--client', 'other'])).err).toContain('has no public OAuth client "other"');
    expect((await agent(['link'])).code).toBe(2);
    expect((await agent(['link', '--tenant', 'demo', '--order'])).code).toBe(2);
  });
});

describe('the flow refuses a forged authorization response', () => {
  const options = { clientId: 'example-agent', scope: ORDER_READ, orders: [] as string[], timeoutMs: 20_000 };
  const forge = (edit: (answer: URL) => void) => async (url: string) => {
    // The buyer really signs in; the answer reaching the agent is then tampered with.
    const asked = new URL(url);
    const redirect = new URL(asked.searchParams.get('redirect_uri')!);
    const answer = new URL(redirect);
    answer.searchParams.set('code', 'a-code');
    answer.searchParams.set('state', asked.searchParams.get('state')!);
    answer.searchParams.set('iss', origin);
    edit(answer);
    await fetch(answer);
  };

  it('another state', async () => {
    const link = linkAccount({
      ...options,
      gateway: origin,
      profile: gw.platform.url(),
      onAuthorizationUrl: forge((a) => a.searchParams.set('state', 'x')),
    });
    await expect(link).rejects.toThrow(/state/);
  });

  it('another iss, or none', async () => {
    const other = linkAccount({
      ...options,
      gateway: origin,
      profile: gw.platform.url(),
      onAuthorizationUrl: forge((a) => a.searchParams.set('iss', 'https://attacker.example')),
    });
    await expect(other).rejects.toThrow(/iss/);
    const none = linkAccount({
      ...options,
      gateway: origin,
      profile: gw.platform.url(),
      onAuthorizationUrl: forge((a) => a.searchParams.delete('iss')),
    });
    await expect(none).rejects.toThrow(/iss/);
  });

  it('a buyer who cancels: access_denied', async () => {
    const link = linkAccount({
      ...options,
      gateway: origin,
      profile: gw.platform.url(),
      onAuthorizationUrl: (url) => void signInOverHttp(url, { ...JANE, action: 'deny' }),
    });
    await expect(link).rejects.toThrow(/access_denied|did not allow/);
  });
});
