/**
 * Provisional discounts at completion (spec part 1 §3, issue 17 item 1): every eligibility claim
 * behind a provisional discount is verified by the store at complete, or its discount is dropped,
 * the checkout repriced and the buyer told. An order never carries an unverified provisional
 * discount. The demo store verifies com.example.student for jane.doe@example.com only
 * (config/demo/eligibility.yaml).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Adapter } from '../../../adapters/contract.js';
import { adapterControl, controlled, type AdapterControl } from './adapter-control.js';
import { checkoutGateway, line, pay, walkToReady, type CheckoutGateway } from './checkout-gateway.js';

const STUDENT = { context: { address_country: 'US', address_region: 'IL', eligibility: ['com.example.student'] } };
const JANE = { email: 'jane.doe@example.com', first_name: 'Jane', last_name: 'Doe' };

const provisional = (body: any) =>
  (body.discounts?.applied ?? [])
    .filter((d: any) => d.eligibility === 'com.example.student')
    .map((d: any) => [d.title, d.provisional ?? false]);
const total = (body: any) => body.totals.find((t: any) => t.type === 'total').amount;

let gw: CheckoutGateway;
let control: AdapterControl;
beforeAll(async () => {
  control = adapterControl();
  gw = await checkoutGateway({ wrapAdapter: controlled(control) });
});
afterAll(() => gw.close());

describe('provisional discounts at completion', () => {
  it('an unverified claim is dropped: repriced, the buyer told, nothing charged; the order then carries no discount', async () => {
    const rest = gw.client('rest');
    const { ready, payload } = await walkToReady(rest, [line('pot_ceramic', 2)], STUDENT);
    expect(ready.status).toBe('ready_for_complete');
    expect(provisional(ready)).toEqual([['Student discount 10%', true]]);
    const placements = control.placements;

    const refused = (await rest.complete(ready.id, pay('success_token'))).body;
    expect([refused.proto.status, refused.status]).toEqual(['error', 'requires_escalation']);
    expect(refused.continue_url).toMatch(new RegExp(`ref=${refused.id}$`));
    expect(refused.messages.map((m: any) => [m.type, m.code, m.path ?? null])).toEqual([
      ['warning', 'eligibility_not_verified', '$.context.eligibility[0]'],
      ['error', 'price_changed', '$.totals'],
    ]);
    expect(refused.messages[0].content).toMatch(/Student discount 10% was removed/);
    expect(provisional(refused)).toEqual([]);
    expect(total(refused)).toBeGreaterThan(total(ready));
    expect(control.placements).toBe(placements);

    // The claim stays dropped for this checkout: the reviewed update completes without it.
    const reviewed = (await rest.update(ready.id, payload)).body;
    expect([reviewed.status, provisional(reviewed), total(reviewed)]).toEqual(['ready_for_complete', [], total(refused)]);
    const done = (await rest.complete(ready.id, pay('success_token'))).body;
    expect(done.status).toBe('completed');
    expect(provisional(done)).toEqual([]);
    expect(total(done)).toBe(total(refused));
  });

  it('a verified claim keeps its discount, no longer provisional, in the completed checkout', async () => {
    const rest = gw.client('rest');
    const { ready } = await walkToReady(rest, [line('pot_ceramic', 2)], { ...STUDENT, buyer: JANE });
    expect(provisional(ready)).toEqual([['Student discount 10%', true]]);
    const done = (await rest.complete(ready.id, pay('success_token'))).body;
    expect([done.proto.status, done.status]).toEqual(['success', 'completed']);
    expect(provisional(done)).toEqual([['Student discount 10%', false]]);
    expect(total(done)).toBe(total(ready));
  });
});

describe('a store that cannot verify claims (no verifyEligibility)', () => {
  let plain: CheckoutGateway;
  beforeAll(async () => {
    const withoutHook = (adapter: Adapter): Adapter => Object.assign(Object.create(adapter) as Adapter, { verifyEligibility: undefined });
    plain = await checkoutGateway({ wrapAdapter: withoutHook });
  });
  afterAll(() => plain.close());

  it('drops every provisional discount at completion, whoever the buyer is', async () => {
    const rest = plain.client('mcp');
    const { ready } = await walkToReady(rest, [line('pot_ceramic', 2)], { ...STUDENT, buyer: JANE });
    const refused = (await rest.complete(ready.id, pay('success_token'))).body;
    expect(refused.status).toBe('requires_escalation');
    expect(refused.messages.map((m: any) => m.code)).toEqual(['eligibility_not_verified', 'price_changed']);
    expect(provisional(refused)).toEqual([]);
  });
});
