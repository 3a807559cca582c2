/**
 * Two things a store like Medusa needs of the REST adapter, generic in themselves: an operation or
 * a step that signs with its own credentials (`auth`: an admin API key besides the shop API's),
 * and `money_rounding: half_up` for a store that keeps amounts unrounded (67.473 USD), rounded
 * once, half away from zero, on the decimal digits.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InvalidAnswerError } from '../../../adapters/contract.js';
import { createRestAdapter } from '../../../adapters/rest/index.js';
import { moneyFunctions } from '../../../adapters/rest/money.js';
import { RestSettings } from '../../../adapters/rest/settings.js';
import { compile } from '../../../schemas/validator.js';

/** A store that answers every call with `{amount}` and remembers the headers of each. */
let server: Server;
let origin: string;
const seen: Array<{ path: string; headers: IncomingHttpHeaders }> = [];
let amount: unknown = '35.00';
beforeAll(async () => {
  server = createServer((req, res) => {
    seen.push({ path: req.url!, headers: req.headers });
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ amount, ids: ['a', 'b'] }));
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((done) => server.close(() => done())));

const SHOP_KEY = 'pk_shop_key_for_tests';
const ADMIN_KEY = 'sk_admin_key_for_tests';
const ADMIN = { type: 'api_key', header: 'Authorization', prefix: 'Basic ', key: 'admin' };

async function adapter(extra: Record<string, unknown>) {
  const settings = compile<RestSettings>(RestSettings)({
    base_url: origin,
    storefront_url: 'https://shop.example',
    currencies: ['USD'],
    money: 'decimal',
    auth: { type: 'api_key', header: 'x-shop-key', key: 'shop' },
    ...extra,
  });
  if (!settings.ok) throw new Error(settings.message);
  return createRestAdapter(settings.value, {
    credentials: { shop: SHOP_KEY, admin: ADMIN_KEY },
    where: 'test/call-auth.yaml',
    tenantId: 'call-auth',
    now: Date.now,
  });
}

describe('an operation or a step with its own auth', () => {
  it('signs that call alone with its credentials; the others keep the settings auth', async () => {
    const rest = await adapter({
      operations: {
        find_order: { method: 'GET', path: '/admin/orders', auth: ADMIN, response: '{"orderId": "o1"}' },
        lookup: {
          steps: [
            { name: 'shop', method: 'GET', path: '/shop/products' },
            { name: 'admin', method: 'GET', path: '/admin/variants', auth: ADMIN },
          ],
          response: '[]',
        },
      },
    });
    seen.length = 0;
    await rest.findOrderByReference('r1');
    await rest.lookup(['x']);
    await rest.ping();
    await rest.close();
    const by = (path: string) => seen.find((s) => s.path.startsWith(path))!.headers;
    expect([by('/admin/orders').authorization, by('/admin/orders')['x-shop-key']]).toEqual([`Basic ${ADMIN_KEY}`, undefined]);
    expect([by('/admin/variants').authorization, by('/shop/products').authorization]).toEqual([`Basic ${ADMIN_KEY}`, undefined]);
    expect([by('/shop/products')['x-shop-key'], by('/health')['x-shop-key']]).toEqual([SHOP_KEY, SHOP_KEY]);
  });

  it('a credential the call names that adapter.credentials lacks stops start-up, naming the place', async () => {
    await expect(
      adapter({ operations: { get_order: { method: 'GET', path: '/o/{orderId}', auth: { ...ADMIN, key: 'nope' } } } }),
    ).rejects.toThrow('$.adapter.settings.operations.get_order.auth.key names the credential "nope"');
  });
});

describe('money_rounding', () => {
  it('half_up: unrounded decimals become minor units rounded once, half away from zero', () => {
    const { money } = moneyFunctions('decimal', 'USD', 'half_up');
    expect([money(67.473), money('0.125'), money('-0.125'), money(24.99), money('0.004'), money(1e-7)]).toEqual([
      6747, 13, -13, 2499, 0, 0,
    ]);
    expect([money('1.2345', 'KWD'), money('1500.5', 'JPY')]).toEqual([1235, 1501]);
  });

  it('exact (default): such an amount is an invalid answer, never silently cut', async () => {
    amount = '67.473';
    const exact = await adapter({
      operations: { find_order: { method: 'GET', path: '/o', response: '{"orderId": $string($money(amount))}' } },
    });
    await expect(exact.findOrderByReference('r')).rejects.toBeInstanceOf(InvalidAnswerError);
    const rounded = await adapter({
      money_rounding: 'half_up',
      operations: { find_order: { method: 'GET', path: '/o', response: '{"orderId": $string($money(amount))}' } },
    });
    expect(await rounded.findOrderByReference('r')).toEqual({ orderId: '6747' });
    await exact.close();
    await rounded.close();
  });
});
