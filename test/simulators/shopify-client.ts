/** GraphQL over HTTP against a Shopify simulator, as a client of the real APIs sends it, and a buyer at its checkout. */
import type { ShopifySimulator } from '../../simulators/shopify/server.js';

export interface GqlAnswer {
  status: number;
  body: { data?: any; errors?: any; extensions?: any };
}

export function shopifyClient(sim: ShopifySimulator) {
  const gql = async (api: 'storefront' | 'admin', query: string, variables: Record<string, unknown> = {}): Promise<GqlAnswer> => {
    const path = api === 'storefront' ? '/api/2026-10/graphql.json' : '/admin/api/2026-10/graphql.json';
    const auth: Record<string, string> =
      api === 'storefront'
        ? { 'Shopify-Storefront-Private-Token': sim.credentials.storefrontToken }
        : { 'X-Shopify-Access-Token': sim.credentials.adminToken };
    const res = await fetch(`${sim.url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...auth },
      body: JSON.stringify({ query, variables }),
    });
    return { status: res.status, body: (await res.json()) as GqlAnswer['body'] };
  };
  const admin = (query: string, variables: Record<string, unknown> = {}) => gql('admin', query, variables);
  const storefront = (query: string, variables: Record<string, unknown> = {}) => gql('storefront', query, variables);
  const variant = (demoId: string) => sim.shop.ids.gid('ProductVariant', demoId);

  /** A cart made with `cartCreate`; `input` is a CartInput. */
  const cart = async (input: Record<string, unknown>) => {
    const { body } = await storefront(
      `mutation($input: CartInput!) { cartCreate(input: $input) {
        cart { id checkoutUrl cost {
          subtotalAmount { amount } totalAmount { amount } checkoutChargeAmount { amount } totalTaxAmount { amount } } }
        userErrors { code message } } }`,
      { input },
    );
    return body.data.cartCreate.cart as {
      id: string;
      checkoutUrl: string;
      cost: Record<string, { amount: string } | null>;
    };
  };

  /** The buyer pays at the hosted checkout (`POST {checkoutUrl}/pay`); the order's id, or the refusal. */
  const pay = async (checkoutUrl: string, body: Record<string, unknown> = {}) => {
    const res = await fetch(`${checkoutUrl.replace(/\?.*$/, '')}/pay`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    const answer = (await res.json()) as { order?: { id: string; name: string }; error?: string };
    return { status: res.status, ...answer };
  };

  /** Posts to the simulator's control API (a merchant's or provider's action). */
  const control = async (path: string, body: Record<string, unknown> = {}) => {
    const res = await fetch(`${sim.url}/_simulator/${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as any };
  };

  return { gql, admin, storefront, variant, cart, pay, control };
}

/** A delivery address in Chicago (Illinois sales tax 6.25 %, not on shipping). */
export const CHICAGO = { address1: '233 S Wacker Dr', city: 'Chicago', provinceCode: 'IL', countryCode: 'US', zip: '60606' };
/** A delivery address in New York (8.875 %, shipping taxed too). */
export const NEW_YORK = { address1: '350 5th Ave', city: 'New York', provinceCode: 'NY', countryCode: 'US', zip: '10118' };

export const orderId = (gid: string) => gid.split('/').at(-1)!;
