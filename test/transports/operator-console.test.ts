/**
 * The operator console over HTTP: only on the operator listener, a strict CSP, and actions
 * refused without an operator (a bearer token, or a signed-in session with its CSRF token), each
 * action logged with who did it.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { orderWebhookQueue } from '../../src/capabilities/order/outbox.js';
import { tenantPageBody } from '../../src/transports/console/tenant-page.js';
import { tenantStatus } from '../../src/transports/console/tenant-status.js';
import { NOW, orderGateway, type OrderGateway } from '../helpers/order-gateway.js';
import { startReceiver, type WebhookReceiver } from '../helpers/webhook-receiver.js';

const TOKEN = 'a-long-operator-token-for-tests';
let gw: OrderGateway | undefined;
let receiver: WebhookReceiver | undefined;
afterEach(async () => {
  await gw?.close();
  await receiver?.close();
  gw = receiver = undefined;
});

/** A gateway with one dead letter (the platform answered 503 to its only attempt). */
async function withDeadLetter(): Promise<{ gw: OrderGateway; event: string }> {
  receiver = await startReceiver();
  receiver.answer(503);
  gw = await orderGateway({
    operators: [{ name: 'alice', token: TOKEN }],
    webhooks: { schedule: { maxAttempts: 1, delayMs: () => 1000 } },
  });
  await gw.placeOrder({ webhookUrl: receiver.url() });
  const queue = orderWebhookQueue(gw.store, 'shop');
  await expect.poll(async () => (await queue.listDead()).length, { timeout: 10_000 }).toBe(1);
  return { gw, event: (await queue.listDead())[0]!.id };
}

const action = (event: string, what: string) => `/console/tenants/shop/dead-letters/${event}/${what}`;

describe('the operator console', () => {
  it('is on the operator listener only, never on the tenant port, with a CSP that allows no script and no remote asset', async () => {
    gw = await orderGateway();
    const page = await gw.app.admin.inject({ method: 'GET', url: '/console' });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('data-tenant="shop"');
    const csp = String(page.headers['content-security-policy']);
    expect(csp).toContain("default-src 'none'");
    expect(csp).not.toMatch(/script-src|https?:/);
    for (const url of ['/console', '/console/tenants/shop', '/console/sign-in']) {
      const onTenantPort = await gw.app.inject({ method: 'GET', url, headers: { host: 'shop.example' } });
      expect(onTenantPort.body).not.toContain('Operator console');
    }
  });

  it("shows the outbox's backlog: when its next attempt is due, then how long its oldest job has waited", async () => {
    receiver = await startReceiver();
    receiver.answer(503);
    gw = await orderGateway(); // retries after 20 s, then 1 min, ...
    await gw.placeOrder({ webhookUrl: receiver.url() });
    await receiver.waitFor(1);
    const summary = async () =>
      /<p class="outbox-summary">(.*?)<\/p>/.exec((await gw!.app.admin.inject({ url: '/console/tenants/shop' })).body)?.[1];
    await expect.poll(summary).toBe('1 waiting (next attempt in 20 s) · 0 dead');
    // Later, a job whose attempt was due and not yet taken (no replica polling) shows how long it has waited.
    const status = await tenantStatus(gw.tenant, gw.app.metrics);
    const body = tenantPageBody(status, { queued: 1, nextDueAt: NOW, dead: [] }, { unsupported: true }, NOW + 45_000, undefined);
    expect(body).toContain('1 waiting (the oldest has waited 45 s) · 0 dead');
  });

  it('refuses an action without an operator, and with a session but no CSRF token; the dead letter stays', async () => {
    const { gw, event } = await withDeadLetter();
    const queue = orderWebhookQueue(gw.store, 'shop');
    const bare = await gw.app.admin.inject({ method: 'POST', url: action(event, 'discard') });
    expect(bare.statusCode).toBe(403);
    expect(bare.body).toContain('Refused');
    const wrong = await gw.app.admin.inject({
      method: 'POST',
      url: action(event, 'discard'),
      headers: { authorization: 'Bearer not-the-token-at-all' },
    });
    expect(wrong.statusCode).toBe(403);

    const signIn = await gw.app.admin.inject({ method: 'POST', url: '/console/sign-in', payload: { token: TOKEN } });
    expect(signIn.statusCode).toBe(303);
    const cookie = String(signIn.headers['set-cookie']);
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Strict/i);
    const session = cookie.split(';')[0]!;
    const noCsrf = await gw.app.admin.inject({ method: 'POST', url: action(event, 'discard'), headers: { cookie: session }, payload: {} });
    expect(noCsrf.statusCode).toBe(403);
    expect(await queue.listDead()).toHaveLength(1);
    expect(gw.logs.filter((l) => l.msg === 'console: action refused without an operator credential')).toHaveLength(3);

    const page = await gw.app.admin.inject({ method: 'GET', url: '/console/tenants/shop', headers: { cookie: session } });
    const csrf = /name="csrf" value="([^"]+)"/.exec(page.body)![1]!;
    const done = await gw.app.admin.inject({
      method: 'POST',
      url: action(event, 'discard'),
      headers: { cookie: session },
      payload: { csrf },
    });
    expect(done.statusCode).toBe(303);
    expect(await queue.listDead()).toHaveLength(0);
    expect(gw.logs).toContainEqual(
      expect.objectContaining({ msg: 'console: dead letter discarded', operator: 'alice', tenant: 'shop', event }),
    );
  });

  it('retries a dead letter for a script with the bearer token: the platform receives it', async () => {
    const { gw, event } = await withDeadLetter();
    receiver!.answer(200);
    const retried = await gw.app.admin.inject({
      method: 'POST',
      url: action(event, 'retry'),
      headers: { authorization: `Bearer ${TOKEN}` },
    });
    expect(retried.statusCode).toBe(303);
    expect(retried.headers.location).toBe('/console/tenants/shop?done=retried');
    const delivered = await receiver!.waitFor(2);
    expect(delivered[1]!.headers['webhook-id']).toBe(event);
    expect(gw.logs).toContainEqual(expect.objectContaining({ msg: 'console: dead letter retried', operator: 'alice', event }));
  });
});
