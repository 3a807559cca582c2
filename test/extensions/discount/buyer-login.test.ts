/**
 * Codes that need a logged-in buyer, through the API: the buyer is known only from a verified
 * buyer token (identity linking), never from the contact details typed into the cart.
 */
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey, type JWK } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cartGateway, NOW, type CartGateway } from '../../capabilities/cart/cart-gateway.js';
import { startPlatform, type PlatformServer } from '../../helpers/platform.js';

const ISSUER = 'https://id.flowers.example';
const AUDIENCE = 'https://shop.example';

let gw: CartGateway;
let platform: PlatformServer;
let issuerKey: CryptoKey;

beforeAll(async () => {
  const pair = await generateKeyPair('ES256', { extractable: true });
  issuerKey = pair.privateKey;
  const jwk: JWK = { ...(await exportJWK(pair.publicKey)), kid: 'as-1', alg: 'ES256' };
  platform = await startPlatform();
  gw = await cartGateway({
    platform,
    tenant: { auth: { oauth: { issuer: ISSUER, audience: AUDIENCE, jwks: { keys: [jwk] }, clients: { 'agent-app': platform.url() } } } },
  });
});
afterAll(async () => {
  await gw.close();
  await platform.close();
});

const buyerToken = (customerId: string) =>
  new SignJWT({ client_id: 'agent-app', scope: 'dev.proto.shopping.order:read' })
    .setProtectedHeader({ alg: 'ES256', kid: 'as-1' })
    .setIssuer(ISSUER)
    .setAudience(AUDIENCE)
    .setSubject(customerId)
    .setIssuedAt(Math.floor(NOW / 1000))
    .setExpirationTime(Math.floor(NOW / 1000) + 600)
    .sign(issuerKey);

async function createCart(codes: string[], authorization?: string) {
  const res = await gw.app.inject({
    method: 'POST',
    url: '/carts',
    headers: gw.headers(authorization ? { authorization } : {}),
    payload: {
      line_items: [{ item: { id: 'bouquet_tulips' }, quantity: 1 }],
      buyer: { email: 'jane.doe@example.com' },
      discounts: { codes },
    },
  });
  expect(res.statusCode).toBe(201);
  return res.json();
}

const warnings = (cart: { messages?: Array<{ type: string; code: string }> }) =>
  (cart.messages ?? []).filter((m) => m.type === 'warning').map((m) => m.code);
const appliedCodes = (cart: { discounts: { applied: Array<{ code?: string }> } }) =>
  cart.discounts.applied.flatMap((d) => (d.code ? [d.code] : []));

describe('login-only and customer-only codes', () => {
  it('a guest gets discount_code_user_not_logged_in, even with a typed email the code would accept', async () => {
    const cart = await createCart(['MEMBER15']);
    expect(warnings(cart)).toEqual(['discount_code_user_not_logged_in']);
    expect(appliedCodes(cart)).toEqual([]);
  });

  it('a buyer token makes the buyer a member', async () => {
    const cart = await createCart(['MEMBER15'], `Bearer ${await buyerToken('cust_2')}`);
    expect(warnings(cart)).toEqual([]);
    expect(appliedCodes(cart)).toEqual(['MEMBER15']);
  });

  it('a customer-only code applies to that customer and is user_ineligible for another', async () => {
    expect(appliedCodes(await createCart(['FRIENDS30'], `Bearer ${await buyerToken('cust_1')}`))).toEqual(['FRIENDS30']);
    expect(warnings(await createCart(['FRIENDS30'], `Bearer ${await buyerToken('cust_2')}`))).toEqual(['discount_code_user_ineligible']);
  });
});
