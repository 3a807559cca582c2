/**
 * An attacker guessing passwords in parallel on the login page: one authorization request, then
 * many login posts sent at once, against one account or against many accounts from one address.
 * Counts how many of them reached the store's password check.
 */
import type { Adapter } from '../../../adapters/contract.js';
import { ORDER_READ } from '../../../src/security/auth/scopes.js';
import type { StateStore } from '../../../src/state/store.js';
import { orderGateway, type OrderGateway } from '../../helpers/order-gateway.js';
import { startPlatform, type PlatformServer } from '../../helpers/platform.js';
import { authorizeUrl, Browser, pathOf, pkcePair } from './link.js';

const CALLBACK = 'http://127.0.0.1/callback';
export const RIGHT = { email: 'jane.doe@example.com', password: 'demo-flowers' };

export interface GuessingGateway {
  gw: OrderGateway;
  /** Password checks the store was asked for so far. */
  checked(): number;
  /** Sends `guesses` (email, password) at once on one login page; the answers' status codes. */
  guess(guesses: ReadonlyArray<{ email: string; password: string }>): Promise<number[]>;
  close(): Promise<void>;
}

export async function guessingGateway(store?: StateStore): Promise<GuessingGateway> {
  let checks = 0;
  const platform: PlatformServer = await startPlatform();
  const gw = await orderGateway({
    platform,
    ...(store && { store }),
    tenant: {
      capabilities: { 'dev.proto.shopping.order': {}, 'dev.proto.common.identity_linking': {} },
      identity_linking: { clients: [{ client_id: 'agent-app', profile: platform.url(), redirect_uris: [CALLBACK] }] },
    },
    wrapAdapter: (adapter: Adapter) =>
      Object.assign(Object.create(adapter) as Adapter, {
        authenticateCustomer: async (...args: Parameters<NonNullable<Adapter['authenticateCustomer']>>) => {
          checks++;
          return adapter.authenticateCustomer!(...args);
        },
      }),
  });
  return {
    gw,
    checked: () => checks,
    async guess(guesses) {
      const browser = new Browser(gw.app);
      const start = await browser.request(
        'GET',
        authorizeUrl({ clientId: 'agent-app', redirectUri: CALLBACK, scope: ORDER_READ, challenge: pkcePair().challenge }),
      );
      const login = pathOf(start.headers.location as string);
      const answers = await Promise.all(guesses.map((g) => browser.request('POST', login, { ...g, action: 'allow' })));
      return answers.map((a) => a.statusCode);
    },
    async close() {
      await gw.close();
      await platform.close();
    },
  };
}

/** 40 wrong passwords for one account. */
export const againstOneAccount = () => Array.from({ length: 40 }, (_, i) => ({ email: RIGHT.email, password: `guess-${i}` }));

/** 40 wrong passwords, each for another account. */
export const acrossAccounts = () => Array.from({ length: 40 }, (_, i) => ({ email: `buyer-${i}@example.com`, password: `guess-${i}` }));
