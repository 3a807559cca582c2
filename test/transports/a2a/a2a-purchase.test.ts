/**
 * A whole purchase over A2A 1.0 with the SDK's own client (search -> checkout -> complete -> order),
 * whose resources equal what REST answers for the same sessions.
 */
import { createHash, randomUUID } from 'node:crypto';
import { Role, type Message, type Part, type SendMessageRequest } from '@a2a-js/sdk';
import { ClientFactory, DefaultAgentCardResolver, JsonRpcTransportFactory, type Client } from '@a2a-js/sdk/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoGateway, type DemoGateway } from '../../helpers/demo-gateway.js';
import { BUYER, CHICAGO } from '../../capabilities/checkout/checkout-gateway.js';
import { startPlatform, type PlatformServer } from '../../helpers/platform.js';

let gw: DemoGateway;
let platform: PlatformServer;
let client: Client;
const BASE = 'https://shop.example';
/** Orders are read by authenticated callers only: this platform's API key. */
const API_KEY = 'a2a-test-platform-key';

beforeAll(async () => {
  platform = await startPlatform();
  const apiKeys = [{ sha256: createHash('sha256').update(API_KEY).digest('hex'), profile: platform.url() }];
  gw = await demoGateway({ platform, tenant: { a2a: true, auth: { api_keys: apiKeys } } });
  const local = await gw.app.listen({ port: 0, host: '127.0.0.1' });
  // The card names the tenant's public base URL; this fetch reaches it on loopback and sends the
  // caller's profile on every request, as a platform configures a stock A2A client.
  const fetchImpl: typeof fetch = (input, init) => {
    const url = String(input instanceof Request ? input.url : input).replace(BASE, local);
    const headers = new Headers(init?.headers);
    headers.set('proto-agent', gw.platform.agent());
    headers.set('x-api-key', API_KEY);
    return fetch(url, { ...init, headers });
  };
  const factory = new ClientFactory({
    transports: [new JsonRpcTransportFactory({ fetchImpl })],
    cardResolver: new DefaultAgentCardResolver({ fetchImpl }),
  });
  client = await factory.createFromUrl(BASE);
});
afterAll(async () => {
  await gw.close();
  await platform.close();
});

const message = (contextId: string, ...data: Array<Record<string, unknown>>): SendMessageRequest => ({
  tenant: '',
  message: {
    messageId: randomUUID(),
    contextId,
    taskId: '',
    role: Role.ROLE_USER,
    parts: data.map((d): Part => ({
      content: { $case: 'data', value: d },
      metadata: undefined,
      filename: '',
      mediaType: 'application/json',
    })),
    metadata: undefined,
    extensions: [],
    referenceTaskIds: [],
  },
  configuration: undefined,
  metadata: undefined,
});

/** What a DataPart carries. */
const dataOf = (part: Part | undefined) => (part?.content?.$case === 'data' ? (part.content.value as Record<string, any>) : undefined);

/** The agent's Message and the resource its DataPart carries under `key`. */
async function send(params: SendMessageRequest, key: string) {
  const answer = (await client.sendMessage(params)) as Message;
  expect(answer.role).toBe(Role.ROLE_AGENT);
  const data = dataOf(answer.parts.find((p) => p.content?.$case === 'data'))!;
  expect(Object.keys(data)).toEqual([key]);
  return { answer, resource: data[key] };
}

const rest = async (url: string) => (await gw.app.inject({ method: 'GET', url, headers: gw.headers({ 'x-api-key': API_KEY }) })).json();

describe('a purchase over A2A with the SDK client', () => {
  it('searches, checks out in one context, pays with payment_data and reads the order, as REST shows them', async () => {
    const contextId = randomUUID();
    const found = await send(message(contextId, { action: 'search_catalog', query: 'roses' }), 'a2a.proto.catalog.search');
    expect(found.answer.contextId).toBe(contextId);
    const product = found.resource.products.find((p: any) => p.id === 'bouquet_roses');
    expect(product).toBeDefined();

    const lines = [{ item: { id: product.variants[0].id }, quantity: 2 }];
    const created = await send(message(contextId, { action: 'create_checkout', line_items: lines, buyer: BUYER }), 'a2a.proto.checkout');
    const id = created.resource.id;
    expect(created.resource.status).toBe('incomplete');
    const kept = created.resource.line_items.map((l: any) => ({ id: l.id, item: { id: l.item.id }, quantity: l.quantity }));

    // No id: the context's checkout (contextId continuity).
    const shipping = { type: 'shipping', destinations: [CHICAGO] };
    const withDestination = await send(
      message(contextId, { action: 'update_checkout', line_items: kept, buyer: BUYER, fulfillment: { methods: [shipping] } }),
      'a2a.proto.checkout',
    );
    expect(withDestination.resource.id).toBe(id);
    const method = withDestination.resource.fulfillment.methods[0];
    const chosen = {
      id: method.id,
      type: 'shipping',
      destinations: method.destinations,
      selected_destination_id: method.selected_destination_id,
      groups: method.groups.map((g: any) => ({ id: g.id, selected_option_id: g.options[0].id })),
    };
    const ready = await send(
      message(contextId, { action: 'update_checkout', id, line_items: kept, buyer: BUYER, fulfillment: { methods: [chosen] } }),
      'a2a.proto.checkout',
    );
    expect(ready.resource.status).toBe('ready_for_complete');

    const instrument = {
      id: 'instr_1',
      handler_id: 'sandbox',
      type: 'card',
      display: { brand: 'Visa', last_digits: '1234' },
      credential: { type: 'PAYMENT_GATEWAY', token: 'success_token' },
    };
    const completion = message(
      contextId,
      { action: 'complete_checkout' },
      {
        'a2a.proto.checkout.payment_data': instrument,
        'a2a.proto.checkout.risk_signals': { 'dev.proto.buyer_ip': '203.0.113.7' },
      },
    );
    const completed = await send(completion, 'a2a.proto.checkout');
    const checkout = completed.resource;
    // A client retrying the same message (same messageId) gets the same answer: one order, not two.
    expect((await send(completion, 'a2a.proto.checkout')).resource).toEqual(checkout);
    expect(checkout).toMatchObject({
      id,
      status: 'completed',
      order_id: checkout.order.id,
      order_permalink_url: checkout.order.permalink_url,
    });
    expect(checkout.order.id).toMatch(/^ord_/);

    const order = await send(message(contextId, { action: 'get_order' }), 'a2a.proto.order');
    expect(order.resource.id).toBe(checkout.order.id);
    expect(order.resource.checkout_id).toBe(id);

    // The same sessions over REST: the very same resources.
    const { order_id: _orderId, order_permalink_url: _permalink, ...bare } = checkout;
    expect(await rest(`/checkout-sessions/${id}`)).toEqual(bare);
    expect(await rest(`/orders/${checkout.order.id}`)).toEqual(order.resource);
    const read = await send(message(contextId, { action: 'get_checkout', id }), 'a2a.proto.checkout');
    expect(read.resource).toEqual(checkout);
  });

  it('streams the same answer over SendStreamingMessage', async () => {
    const events = [];
    for await (const event of client.sendMessageStream(message(randomUUID(), { action: 'search_catalog', query: 'pot' })))
      events.push(event);
    expect(events).toHaveLength(1);
    expect(events[0]!.payload?.$case).toBe('message');
    const answer = events[0]!.payload!.value as Message;
    expect(dataOf(answer.parts[0])!['a2a.proto.catalog.search'].products.map((p: any) => p.id)).toContain('pot_ceramic');
  });
});
