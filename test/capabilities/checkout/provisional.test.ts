/**
 * Provisional discounts at completion (spec part 1 §3, issue 17 item 1, issue 31 item 2, issue 47
 * item 2): every eligibility claim behind a provisional discount is verified by the store at
 * complete; a failed verification only affects the messages (a recoverable eligibility_invalid
 * error, upstream checkout.md), not `proto.status`, totals untouched until the claim is removed. An order never carries an
 * unverified provisional discount. The demo store verifies com.example.student for jane.doe@example.com only
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
  it('an unverified claim only affects messages: eligibility_invalid (recoverable), totals untouched, nothing charged', async () => {
    const rest = gw.client('rest');
    const { ready, payload } = await walkToReady(rest, [line('pot_ceramic', 2)], STUDENT);
    expect(ready.status).toBe('ready_for_complete');
    expect(provisional(ready)).toEqual([['Student discount 10%', true]]);
    const placements = control.placements;

    const refused = (await rest.complete(ready.id, pay('success_token'))).body;
    // Only the messages say so: the envelope's status is success, the checkout's unchanged.
    expect([refused.proto.status, refused.status]).toEqual(['success', 'ready_for_complete']);
    expect(refused.messages.map((m: any) => [m.type, m.code, m.severity, m.path ?? null])).toEqual([
      ['error', 'eligibility_invalid', 'recoverable', '$.context.eligibility[0]'],
    ]);
    expect(refused.totals).toEqual(ready.totals);
    expect(provisional(refused)).toEqual([['Student discount 10%', true]]);
    expect(control.placements).toBe(placements);
    // Still so on a second try: the claim stays until it is removed.
    expect((await rest.complete(ready.id, pay('success_token'))).body.messages[0].code).toBe('eligibility_invalid');

    // The platform removes the claim: the update prices without it, and the checkout completes.
    const withoutClaim = { ...payload, context: { ...STUDENT.context, eligibility: [] } };
    const reviewed = (await rest.update(ready.id, withoutClaim)).body;
    expect([reviewed.status, provisional(reviewed)]).toEqual(['ready_for_complete', []]);
    expect(total(reviewed)).toBeGreaterThan(total(ready));
    const done = (await rest.complete(ready.id, pay('success_token'))).body;
    expect(done.status).toBe('completed');
    expect(provisional(done)).toEqual([]);
    expect(total(done)).toBe(total(reviewed));
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

  it('answers eligibility_invalid for every provisional claim at completion, whoever the buyer is, totals untouched', async () => {
    const rest = plain.client('mcp');
    const { ready } = await walkToReady(rest, [line('pot_ceramic', 2)], { ...STUDENT, buyer: JANE });
    const refused = (await rest.complete(ready.id, pay('success_token'))).body;
    expect([refused.proto.status, refused.status]).toEqual(['success', 'ready_for_complete']);
    expect(refused.messages.map((m: any) => [m.code, m.severity])).toEqual([['eligibility_invalid', 'recoverable']]);
    expect(refused.totals).toEqual(ready.totals);
  });
});
