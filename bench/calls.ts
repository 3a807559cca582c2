/** The protocol calls the benchmark rows drive, shared by the demo-store rows and the REST adapter rows. */
import type { Call } from './drive.js';
import type { ServerProcess } from './processes.js';

const lines = [{ item: { id: 'bouquet_roses' }, quantity: 2 }];

async function newCheckout(agent: string, gateway: ServerProcess): Promise<string> {
  const id = `bench-setup-${Date.now()}-${Math.random()}`;
  const response = await fetch(`${gateway.origin}/checkout-sessions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'proto-agent': agent, 'request-id': id, 'idempotency-key': id },
    body: JSON.stringify({ line_items: lines, buyer: { email: 'bench@example.com' } }),
  });
  const checkout = (await response.json()) as { id?: string };
  if (!checkout.id) throw new Error(`could not create the checkout to read: ${JSON.stringify(checkout)}`);
  return checkout.id;
}

export type CallMaker = (agent: string, gateway: ServerProcess) => Promise<Call>;

export const CALLS = {
  discovery: async () => ({ method: 'GET', path: '/.well-known/proto' }),
  search_catalog: async (agent) => ({
    method: 'POST',
    path: '/catalog/search',
    headers: { 'proto-agent': agent },
    body: { query: 'roses', pagination: { limit: 10 } },
    unique: true,
  }),
  get_product: async (agent) => ({
    method: 'POST',
    path: '/catalog/product',
    headers: { 'proto-agent': agent },
    body: { id: 'florist_tee', selected: [{ name: 'Size', label: 'M' }] },
    unique: true,
  }),
  create_cart: async (agent) => ({
    method: 'POST',
    path: '/carts',
    headers: { 'proto-agent': agent },
    body: { line_items: lines },
    unique: true,
  }),
  create_checkout: async (agent) => ({
    method: 'POST',
    path: '/checkout-sessions',
    headers: { 'proto-agent': agent },
    body: { line_items: lines, buyer: { email: 'bench@example.com' } },
    unique: true,
  }),
  get_checkout: async (agent, server) => ({
    method: 'GET',
    path: `/checkout-sessions/${await newCheckout(agent, server)}`,
    headers: { 'proto-agent': agent },
    unique: true,
  }),
} satisfies Record<string, CallMaker>;

/** Sends one call as a client would (fresh Request-Id and Idempotency-Key); answers the body text, failing on an error. */
export async function send(server: ServerProcess, call: Call, operation: string): Promise<string> {
  const id = `bench-check-${Date.now()}-${Math.random()}`;
  const response = await fetch(server.origin + call.path, {
    method: call.method,
    headers: {
      ...(call.body !== undefined && { 'content-type': 'application/json' }),
      ...call.headers,
      'request-id': id,
      'idempotency-key': id,
    },
    ...(call.body !== undefined && { body: JSON.stringify(call.body) }),
  });
  const text = await response.text();
  if (!response.ok || /"status":\s*"error"/.test(text)) throw new Error(`${operation}: HTTP ${response.status} ${text.slice(0, 500)}`);
  return text;
}
