/**
 * The REST adapter's mappable `authenticate_customer`: the reference store's own login call
 * (both of its tenant files) and the documented store API's default, each mapping an email and
 * password to the store's customer id, every refusal to the same null (no user enumeration), and
 * the gateway's credentials refused to an error rather than "wrong password". Then a REST tenant
 * links a buyer through it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRestAdapter, type RestAdapter } from '../../../adapters/rest/index.js';
import { RestSettings } from '../../../adapters/rest/settings.js';
import { ORDER_READ } from '../../../src/security/auth/scopes.js';
import { MemoryStore } from '../../../src/state/memory-store.js';
import { answerProblem, type CheckedMethod } from '../../../src/tenancy/adapter-answers.js';
import { compile } from '../../../schemas/validator.js';
import { DOCUMENTED_TOKEN, startDocumentedStore, type DocumentedStore } from '../../helpers/documented-store.js';
import { baseTenantConfig, testGateway } from '../../helpers/gateway.js';
import { tenantKeyring } from '../../helpers/order-gateway.js';
import {
  flowersAdapter,
  flowersTenant,
  FLOWERS_CART_FILE,
  FLOWERS_FILE,
  startRestStore,
  type TestRestStore,
} from '../../helpers/rest-store.js';
import { authorizeUrl, Browser, linkBuyer, pathOf, pkcePair } from '../../identity/helpers/link.js';

const JANE = { email: 'jane.smith@example.com', password: 'demo-flowers' };

let store: TestRestStore;
let documented: DocumentedStore;
beforeAll(async () => {
  store = await startRestStore();
  documented = await startDocumentedStore();
});
afterAll(async () => {
  await store.close();
  await documented.close();
});

describe.each([FLOWERS_FILE, FLOWERS_CART_FILE])("the reference store's login, mapped by %s", (file) => {
  let adapter: RestAdapter;
  beforeAll(async () => (adapter = await flowersAdapter(store, Date.now, {}, file)));

  it("answers the store's customer id and email for the right password", async () => {
    await expect(adapter.authenticateCustomer!(JANE)).resolves.toEqual({ customerId: 'cust_2', email: JANE.email });
  });

  it('maps a wrong password and an unknown email to the same null; the store answers both alike', async () => {
    await expect(adapter.authenticateCustomer!({ ...JANE, password: 'demo-flowers!' })).resolves.toBeNull();
    await expect(adapter.authenticateCustomer!({ ...JANE, email: 'nobody@example.com' })).resolves.toBeNull();
    const wrong = await store.call('POST', '/customers/authenticate', { username: JANE.email, password: 'x' });
    const unknown = await store.call('POST', '/customers/authenticate', { username: 'nobody@example.com', password: 'x' });
    expect(wrong).toEqual(unknown);
    expect(wrong).toEqual({ status: 401, body: { error: { code: 'invalid_credentials', message: 'wrong email or password' } } });
  });

  it("fails (not null) when the store refuses the gateway's own credentials", async () => {
    // The same tenant signing with a wrong secret: the store's 401 is unauthorized, not invalid_credentials.
    const wrongKey = await createRestAdapter(settingsOf(file), {
      credentials: { api_secret: 'not-the-secret', webhook_secret: 'x' },
      where: file,
      tenantId: 'flowers',
      now: Date.now,
      answerProblem: (method, answer) => answerProblem(method as CheckedMethod, answer),
    });
    await expect(wrongKey.authenticateCustomer!(JANE)).rejects.toThrow(/the store refused the login call/);
  });
});

function settingsOf(file: string): RestSettings {
  const checked = compile<RestSettings>(RestSettings)(flowersTenant(store, undefined, file).adapter.settings);
  if (!checked.ok) throw new Error(checked.message);
  return checked.value;
}

describe("the documented store API's default authenticate_customer", () => {
  const adapterWith = async (operations: Record<string, unknown>) => {
    const settings = compile<RestSettings>(RestSettings)({
      base_url: documented.origin,
      storefront_url: 'https://flowers.example/store',
      currencies: ['USD'],
      money: 'minor',
      auth: { type: 'bearer', token: 'token' },
      operations,
    });
    if (!settings.ok) throw new Error(settings.message);
    return createRestAdapter(settings.value, {
      credentials: { token: DOCUMENTED_TOKEN },
      where: 'test/documented.yaml',
      tenantId: 'documented',
      now: Date.now,
      answerProblem: (method, answer) => answerProblem(method as CheckedMethod, answer),
    });
  };

  it('declared with no fields, logs in with POST /customers/login; a refusal (422) is null', async () => {
    const adapter = await adapterWith({ authenticate_customer: {} });
    await expect(adapter.authenticateCustomer!(JANE)).resolves.toEqual({ customerId: 'cust_2', email: JANE.email });
    await expect(adapter.authenticateCustomer!({ ...JANE, password: 'nope' })).resolves.toBeNull();
    await expect(adapter.authenticateCustomer!({ ...JANE, email: 'nobody@example.com' })).resolves.toBeNull();
  });

  it('not declared: the adapter has no customer login, so the tenant has no login source', async () => {
    expect((await adapterWith({})).authenticateCustomer).toBeUndefined();
  });
});

describe('a REST tenant linking a buyer through its store login', () => {
  it('links with the right password; a wrong one and an unknown email get the same message', async () => {
    const memory = new MemoryStore();
    const gw = await testGateway({
      store: memory,
      adapter: await flowersAdapter(store),
      keyring: await tenantKeyring(),
      tenant: {
        capabilities: { ...baseTenantConfig.capabilities, 'dev.proto.common.identity_linking': {} },
        identity_linking: {
          clients: [{ client_id: 'agent-app', profile: 'https://agent.example/p', redirect_uris: ['http://127.0.0.1/cb'] }],
        },
      },
      assembly: { identityDeps: { store: memory, env: {} } },
    });
    try {
      const linked = await linkBuyer(gw.app, { clientId: 'agent-app', redirectUri: 'http://127.0.0.1/cb', scope: ORDER_READ, ...JANE });
      expect(linked.code).not.toBe('');
      const browser = new Browser(gw.app);
      const start = await browser.request(
        'GET',
        authorizeUrl({ clientId: 'agent-app', redirectUri: 'http://127.0.0.1/cb', scope: ORDER_READ, challenge: pkcePair().challenge }),
      );
      const login = pathOf(start.headers.location as string);
      const wrong = await browser.request('POST', login, { ...JANE, password: 'guess', action: 'allow' });
      const unknown = await browser.request('POST', login, { email: 'nobody@example.com', password: 'guess', action: 'allow' });
      expect([wrong.statusCode, unknown.statusCode]).toEqual([401, 401]);
      const message = (page: string) => /<p class="error" role="alert">([^<]+)<\/p>/.exec(page)?.[1];
      expect(message(wrong.body)).toBe('That email and password do not match an account of this store.');
      expect(message(unknown.body)).toBe(message(wrong.body));
    } finally {
      await gw.close();
    }
  });
});
