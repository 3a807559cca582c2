/**
 * Push deliveries of the merchant's Medusa subscriber, without a Medusa server: what the adapter
 * accepts (signed by the subscriber's own code, fresh, well-formed) and what it refuses, and how
 * the subscriber delivers (retries, gives up, logs without the secret) against a loopback
 * endpoint. The real subscriber inside the real Medusa server is test/adapters/medusa/push.test.ts.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import { afterEach, describe, expect, it } from 'vitest';
import { SIGNATURE_HEADER, TOLERANCE_SECONDS, verifyMedusaPush } from '../../adapters/medusa/webhooks.js';

interface PushEvent {
  id: string;
  type: string;
  order_id?: string;
  reference?: string;
  cart_id?: string;
  created_at: string;
}
const subscriber = createRequire(import.meta.url)('../../examples/medusa-store/src/subscribers/proto-gateway-webhook.js') as {
  signature(secret: string, timestamp: number, body: string): string;
  deliver(
    event: PushEvent,
    options: { url: string; secret: string; logger: { warn(line: string): void }; wait?: (ms: number) => Promise<void> },
  ): Promise<boolean>;
  config: { event: string[] };
};

const SECRET = 'whsec_medusa_test_7Hq2Lx9Pz4';
const NOW = Date.parse('2026-11-27T12:00:00Z');
const T = NOW / 1000;
const EVENT: PushEvent = {
  id: '0b7f6c1e-9f55-4e0a-8b1c-2f0f7f3c9d11',
  type: 'order.fulfillment_created',
  order_id: 'order_01JQ8',
  reference: 'chk_42',
  created_at: '2026-11-27T12:00:00.000Z',
};

/** A delivery as the subscriber signs it. */
function delivery(event: unknown = EVENT, { secret = SECRET, at = T }: { secret?: string; at?: number } = {}) {
  const body = typeof event === 'string' ? event : JSON.stringify(event);
  return { headers: { [SIGNATURE_HEADER]: subscriber.signature(secret, at, body) }, body: Buffer.from(body) };
}
const verify = (d: { headers: Record<string, string | string[] | undefined>; body: Buffer }, secret: string | undefined = SECRET) =>
  verifyMedusaPush(secret, d.headers, d.body, NOW);

describe('verifying a push delivery', () => {
  it("accepts the subscriber's signature and maps the event to an order event with its reference", () => {
    expect(verify(delivery())).toEqual({
      kind: 'order',
      eventId: EVENT.id,
      orderId: 'order_01JQ8',
      topic: 'order.fulfillment_created',
      reference: 'chk_42',
    });
    const { reference: _none, ...withoutReference } = EVENT;
    expect(verify(delivery(withoutReference))).toEqual({
      kind: 'order',
      eventId: EVENT.id,
      orderId: 'order_01JQ8',
      topic: 'order.fulfillment_created',
    });
  });

  it('carries the cart the order came from as its store reference (the order-cart link)', () => {
    expect(verify(delivery({ ...EVENT, cart_id: 'cart_01JQ7' }))).toEqual({
      kind: 'order',
      eventId: EVENT.id,
      orderId: 'order_01JQ8',
      topic: 'order.fulfillment_created',
      reference: 'chk_42',
      storeReference: 'cart_01JQ7',
    });
    expect(verify(delivery({ ...EVENT, cart_id: 42 }))).not.toHaveProperty('storeReference');
  });

  it('maps a signed event without an order to a ping', () => {
    expect(verify(delivery({ id: 'ping-1', type: 'ping', created_at: EVENT.created_at }))).toEqual({ kind: 'ping', eventId: 'ping-1' });
  });

  it('refuses another secret, a changed body, a changed timestamp, and a tenant without a secret', () => {
    expect(verify(delivery(EVENT, { secret: 'someone-else' }))).toBeNull();
    const signed = delivery();
    expect(verify({ ...signed, body: Buffer.from(JSON.stringify({ ...EVENT, order_id: 'order_other' })) })).toBeNull();
    const [, mac] = /v1=(\w+)/.exec(signed.headers[SIGNATURE_HEADER])!;
    expect(verify({ ...signed, headers: { [SIGNATURE_HEADER]: `t=${T + 1},v1=${mac}` } })).toBeNull();
    expect(verifyMedusaPush(undefined, signed.headers, signed.body, NOW)).toBeNull();
    expect(verify(signed, '')).toBeNull();
  });

  it(`refuses a timestamp more than ${TOLERANCE_SECONDS} s from the gateway's clock, either way`, () => {
    expect(verify(delivery(EVENT, { at: T - TOLERANCE_SECONDS }))).not.toBeNull();
    expect(verify(delivery(EVENT, { at: T + TOLERANCE_SECONDS }))).not.toBeNull();
    expect(verify(delivery(EVENT, { at: T - TOLERANCE_SECONDS - 1 }))).toBeNull();
    expect(verify(delivery(EVENT, { at: T + TOLERANCE_SECONDS + 1 }))).toBeNull();
  });

  it('refuses a missing or malformed signature header without throwing', () => {
    const { body, headers } = delivery();
    const mac = /v1=(\w+)/.exec(headers[SIGNATURE_HEADER])![1]!;
    for (const value of [
      undefined,
      '',
      'garbage',
      `v1=${mac}`,
      `t=${T}`,
      `t=${T},v1=${mac.slice(2)}`,
      `t=${T},v1=${mac.toUpperCase()}`,
      `t=abc,v1=${mac}`,
    ]) {
      expect(verify({ body, headers: { [SIGNATURE_HEADER]: value } })).toBeNull();
    }
    expect(verify({ body, headers: {} })).toBeNull();
    // Repeated header: the first counts.
    expect(verify({ body, headers: { [SIGNATURE_HEADER]: [headers[SIGNATURE_HEADER], 'garbage'] } })).not.toBeNull();
  });

  it('refuses a correctly signed body that is not an event: garbage, not JSON, wrong types', () => {
    for (const body of ['', 'not json', '{"id":', 'null', '42', '[]', '"text"', JSON.stringify({ type: 'order.updated', order_id: 'o' })]) {
      expect(verify(delivery(body))).toBeNull();
    }
    expect(verify(delivery({ ...EVENT, id: 7 }))).toBeNull();
    expect(verify(delivery({ ...EVENT, type: '' }))).toBeNull();
    expect(verify(delivery(Buffer.from([0xff, 0xfe, 0x00]).toString('latin1')))).toBeNull();
  });

  it('subscribes to the order events Medusa emits, by their Medusa names', () => {
    expect(subscriber.config.event).toEqual(
      expect.arrayContaining([
        'order.placed',
        'order.updated',
        'order.canceled',
        'order.fulfillment_created',
        'shipment.created',
        'payment.refunded',
      ]),
    );
  });
});

describe("the subscriber's delivery", () => {
  let server: Server | undefined;
  afterEach(() => new Promise<void>((done) => (server ? server.close(() => done()) : done())));

  /** A gateway stand-in answering the given statuses in turn; records what it got. */
  async function endpoint(statuses: number[]) {
    const got: Array<{ headers: Record<string, string | string[] | undefined>; body: Buffer }> = [];
    server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        got.push({ headers: req.headers, body: Buffer.concat(chunks) });
        res.writeHead(statuses[got.length - 1] ?? 200).end();
      });
    });
    await new Promise<void>((done) => server!.listen(0, '127.0.0.1', done));
    return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks/backend`, got };
  }
  const options = (url: string, lines: string[]) => ({
    url,
    secret: SECRET,
    logger: { warn: (l: string) => lines.push(l) },
    wait: async () => {},
  });

  it('retries a 503 and delivers what the adapter verifies', async () => {
    const { url, got } = await endpoint([503, 200]);
    const lines: string[] = [];
    expect(await subscriber.deliver(EVENT, options(url, lines))).toBe(true);
    expect(got).toHaveLength(2);
    expect(verifyMedusaPush(SECRET, got[1]!.headers, got[1]!.body, Date.now())).toMatchObject({ kind: 'order', eventId: EVENT.id });
    expect(lines).toEqual([]);
  });

  it('gives up after three attempts, or at once on a refusal, and logs without the secret', async () => {
    const failing = await endpoint([500, 502, 500, 500]);
    const lines: string[] = [];
    expect(await subscriber.deliver(EVENT, options(failing.url, lines))).toBe(false);
    expect(failing.got).toHaveLength(3);
    await new Promise<void>((done) => server!.close(() => done()));

    const refusing = await endpoint([401]);
    expect(await subscriber.deliver(EVENT, options(refusing.url, lines))).toBe(false);
    expect(refusing.got).toHaveLength(1);
    await new Promise<void>((done) => server!.close(() => done()));
    server = undefined;

    expect(await subscriber.deliver(EVENT, options(refusing.url, lines))).toBe(false); // nothing listens now
    expect(lines).toHaveLength(3);
    expect(lines[0]).toMatch(/order\.fulfillment_created of order_01JQ8 not delivered .*answered 500/);
    expect(lines[1]).toMatch(/answered 401/);
    expect(lines[2]).toMatch(/unreachable \(ECONNREFUSED\)/);
    for (const line of lines) expect(line).not.toContain(SECRET);
  });
});
