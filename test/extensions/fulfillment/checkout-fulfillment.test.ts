/**
 * The fulfillment extension on checkout, through the API: methods, destinations, groups and
 * options with the business's stable ids; multi-group for platforms that support it; pickup at a
 * location discovered in the catalog; addresses in any country spelling; what cannot be used.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  BUYER,
  CHICAGO,
  checkoutGateway,
  codes,
  expectConsistentTotals,
  line,
  pay,
  PROFILES,
  STOREFRONT,
  total,
  type CheckoutClient,
  type CheckoutGateway,
} from '../../capabilities/checkout/checkout-gateway.js';

let gw: CheckoutGateway;
beforeAll(async () => {
  gw = await checkoutGateway();
});
afterAll(() => gw.close());

/** Creates a checkout and returns its id and the line items to resend. */
async function start(client: CheckoutClient, lineItems: unknown[]) {
  const created = (await client.create({ line_items: lineItems, buyer: BUYER })).body;
  return {
    id: created.id as string,
    lines: created.line_items.map((l: any) => ({ id: l.id, item: { id: l.item.id }, quantity: l.quantity })),
    created,
  };
}

const b64 = (key: string) => Buffer.from(key).toString('base64url');

describe('groups', () => {
  it('a platform with supports_multi_group gets one group per parcel; a free-shipping promotion reduces only its parcel', async () => {
    const client = gw.client('rest', PROFILES.multiGroup);
    const { id, lines } = await start(client, [line('bouquet_roses'), line('pot_ceramic'), line('ebook_flower_care')]);
    const asked = (
      await client.update(id, {
        line_items: lines,
        buyer: BUYER,
        fulfillment: { methods: [{ type: 'shipping', destinations: [CHICAGO] }] },
      })
    ).body;
    const method = asked.fulfillment.methods[0];
    expect(method.line_item_ids).toEqual([lines[0].id, lines[1].id]);
    expect(method.groups.map((g: any) => [g.id, g.line_item_ids])).toEqual([
      [`shipping_1.${b64('florist')}`, [lines[0].id]],
      [`shipping_1.${b64('warehouse')}`, [lines[1].id]],
    ]);
    expect(codes(asked)).toEqual([
      ['missing', '$.fulfillment.methods[0].groups[0].selected_option_id'],
      ['missing', '$.fulfillment.methods[0].groups[1].selected_option_id'],
    ]);
    const groups = method.groups.map((g: any) => ({ id: g.id, selected_option_id: 'std-ship' }));
    const ready = (
      await client.update(id, {
        line_items: lines,
        buyer: BUYER,
        fulfillment: { methods: [{ id: method.id, type: 'shipping', destinations: [CHICAGO], groups }] },
      })
    ).body;
    expect(ready.status).toBe('ready_for_complete');
    expect(ready.fulfillment.methods[0].groups.map((g: any) => g.id)).toEqual(method.groups.map((g: any) => g.id));
    expect(total(ready.totals, 'fulfillment')).toBe(1000);
    expect(total(ready.totals, 'discount')).toBe(-500);
    expect(ready.discounts.applied.find((d: any) => d.automatic && d.amount > 0).allocations).toEqual([
      { path: '$.fulfillment.methods[0].groups[0]', amount: 500 },
    ]);
    expect(ready.fulfillment.methods[0].groups.map((g: any) => g.options[0].totals)).toEqual([
      [
        { type: 'subtotal', amount: 500 },
        { type: 'discount', amount: -500 },
        { type: 'total', amount: 0 },
      ],
      [
        { type: 'subtotal', amount: 500 },
        { type: 'total', amount: 500 },
      ],
    ]);
    expectConsistentTotals(ready);
    expect((await client.complete(id, pay('success_token'))).body.status).toBe('completed');
  });

  it('a platform without it gets one group per method', async () => {
    const client = gw.client('mcp');
    const { id, lines } = await start(client, [line('bouquet_roses'), line('pot_ceramic')]);
    const asked = (
      await client.update(id, {
        line_items: lines,
        buyer: BUYER,
        fulfillment: { methods: [{ type: 'shipping', destinations: [CHICAGO] }] },
      })
    ).body;
    expect(asked.fulfillment.methods[0].groups.map((g: any) => [g.id, g.line_item_ids])).toEqual([
      [`shipping_1.${b64('all')}`, [lines[0].id, lines[1].id]],
    ]);
  });

  it('options come cheapest first, each title distinct, descriptions repeating neither title nor price', async () => {
    const client = gw.client('rest');
    const { id, lines } = await start(client, [line('pot_ceramic')]);
    const toronto = {
      street_address: '1 Front St W',
      address_locality: 'Toronto',
      address_region: 'ON',
      address_country: 'Canada',
      postal_code: 'M5J 2X5',
    };
    const body = (
      await client.update(id, {
        line_items: lines,
        buyer: BUYER,
        fulfillment: { methods: [{ type: 'shipping', destinations: [toronto] }] },
      })
    ).body;
    const options = body.fulfillment.methods[0].groups[0].options;
    expect(options.map((o: any) => [o.id, total(o.totals, 'total')])).toEqual([
      ['ca-std', 900],
      ['ca-exp', 2200],
    ]);
    expect(new Set(options.map((o: any) => o.title)).size).toBe(options.length);
    for (const o of options) {
      expect(o.description).not.toContain(o.title);
      expect(o.description).not.toMatch(/\$|9\.00|22\.00/);
      expect(o).toMatchObject({
        carrier: expect.any(String),
        earliest_fulfillment_time: expect.any(String),
        latest_fulfillment_time: expect.any(String),
      });
    }
  });

  it('a group the store cannot serve where it goes says why', async () => {
    const client = gw.client('rest');
    const { id, lines } = await start(client, [line('bouquet_roses')]);
    const paris = { street_address: '1 Rue de Rivoli', address_locality: 'Paris', address_country: 'FRA', postal_code: '75001' };
    const body = (
      await client.update(id, { line_items: lines, buyer: BUYER, fulfillment: { methods: [{ type: 'shipping', destinations: [paris] }] } })
    ).body;
    expect(body.messages).toEqual([
      {
        type: 'error',
        code: 'fulfillment_unavailable',
        severity: 'recoverable',
        path: '$.fulfillment.methods[0].groups[0]',
        content: 'Bouquet of Red Roses cannot be shipped to FR.',
      },
    ]);
    expect(body.fulfillment.methods[0].groups[0].options).toEqual([]);
  });
});

describe('pickup', () => {
  it('lists the store locations; a location and an option discovered in the catalog are accepted as they are', async () => {
    const client = gw.client('mcp');
    const { id, lines } = await start(client, [line('bouquet_roses', 2)]);
    const asked = (await client.update(id, { line_items: lines, buyer: BUYER, fulfillment: { methods: [{ type: 'pickup' }] } })).body;
    const method = asked.fulfillment.methods[0];
    expect(method.destinations).toEqual([
      {
        id: 'loop',
        name: 'Petal & Stem Loop Studio',
        address: {
          street_address: '35 E Wacker Dr',
          address_locality: 'Chicago',
          address_region: 'IL',
          address_country: 'US',
          postal_code: '60601',
        },
      },
      {
        id: 'evanston',
        name: 'Petal & Stem Evanston Shop',
        address: {
          street_address: '1600 Sherman Ave',
          address_locality: 'Evanston',
          address_region: 'IL',
          address_country: 'US',
          postal_code: '60201',
        },
      },
    ]);
    expect(codes(asked)).toEqual([['missing', '$.fulfillment.methods[0].selected_destination_id']]);

    // What catalog discovery gives for the Loop Studio: its location id and option id, no group id yet.
    const product = await gw.app.inject({
      method: 'POST',
      url: '/catalog/product',
      headers: gw.headers(),
      payload: { id: 'bouquet_roses', filters: { fulfills_to: { location: 'loop' }, methods: ['pickup'] } },
    });
    const pickup = product.json().product.variants[0].fulfillment.methods[0];
    expect([pickup.location, pickup.options[0].id]).toEqual(['loop', 'pickup-loop']);
    const discovered = { type: 'pickup', selected_destination_id: pickup.location, groups: [{ selected_option_id: pickup.options[0].id }] };
    const ready = (await client.update(id, { line_items: lines, buyer: BUYER, fulfillment: { methods: [discovered] } })).body;
    expect(ready.status).toBe('ready_for_complete');
    const group = ready.fulfillment.methods[0].groups[0];
    expect([ready.fulfillment.methods[0].selected_destination_id, group.selected_option_id]).toEqual(['loop', 'pickup-loop']);
    expect(group.options[0]).toMatchObject({
      title: 'Pick up at Petal & Stem Loop Studio',
      description: 'Ready within 2 hours',
      totals: [
        { type: 'subtotal', amount: 0 },
        { type: 'total', amount: 0 },
      ],
    });
    expect([total(ready.totals, 'fulfillment'), total(ready.totals, 'tax')]).toEqual([0, 438]);
    expect((await client.complete(id, pay('success_token'))).body.status).toBe('completed');
  });

  it('a location without the stock says so; an unknown location is refused at its path', async () => {
    const client = gw.client('rest');
    const { id, lines } = await start(client, [line('bouquet_sunflowers')]);
    const evanston = (
      await client.update(id, {
        line_items: lines,
        buyer: BUYER,
        fulfillment: { methods: [{ type: 'pickup', destinations: [{ id: 'evanston' }] }] },
      })
    ).body;
    expect(codes(evanston)).toEqual([['fulfillment_unavailable', '$.fulfillment.methods[0].groups[0]']]);
    expect(evanston.messages[0].content).toBe('Sunflower Bundle not in stock at Petal & Stem Evanston Shop.');
    const nowhere = (
      await client.update(id, {
        line_items: lines,
        buyer: BUYER,
        fulfillment: { methods: [{ type: 'pickup', selected_destination_id: 'atlantis' }] },
      })
    ).body;
    expect(codes(nowhere)).toEqual([
      ['invalid_destination', '$.fulfillment.methods[0].selected_destination_id'],
      ['missing', '$.fulfillment.methods[0].selected_destination_id'],
    ]);
  });

  it('shipping for some lines and pickup for others', async () => {
    const client = gw.client('rest');
    const { id, lines } = await start(client, [line('pot_ceramic'), line('bouquet_roses')]);
    const methods = [
      { type: 'shipping', line_item_ids: [lines[0].id], destinations: [CHICAGO], groups: [{ selected_option_id: 'std-ship' }] },
      { type: 'pickup', line_item_ids: [lines[1].id], selected_destination_id: 'loop', groups: [{ selected_option_id: 'pickup-loop' }] },
    ];
    const ready = (await client.update(id, { line_items: lines, buyer: BUYER, fulfillment: { methods } })).body;
    expect(ready.status).toBe('ready_for_complete');
    expect(ready.fulfillment.methods.map((m: any) => [m.id, m.type, m.line_item_ids])).toEqual([
      ['shipping_1', 'shipping', [lines[0].id]],
      ['pickup_1', 'pickup', [lines[1].id]],
    ]);
    expect(total(ready.totals, 'fulfillment')).toBe(500);
  });
});

describe('destinations and ids', () => {
  it('reads the country as alpha-2, alpha-3 or name; the same address is the same destination, its id stable', async () => {
    const client = gw.client('rest');
    const { id, lines } = await start(client, [line('pot_ceramic')]);
    const spellings = [
      CHICAGO,
      { ...CHICAGO, address_country: 'us', address_region: 'US-IL' },
      { ...CHICAGO, address_country: ' United States ' },
    ];
    const body = (
      await client.update(id, {
        line_items: lines,
        buyer: BUYER,
        fulfillment: { methods: [{ type: 'shipping', destinations: spellings }] },
      })
    ).body;
    const method = body.fulfillment.methods[0];
    expect(method.destinations).toHaveLength(1);
    expect(method.destinations[0]).toMatchObject({ address_country: 'US', address_region: 'IL' });
    expect(method.selected_destination_id).toBe(method.destinations[0].id);
    // Resent without any id, everything keeps its id.
    const again = (
      await client.update(id, {
        line_items: lines,
        buyer: BUYER,
        fulfillment: { methods: [{ type: 'shipping', destinations: [CHICAGO] }] },
      })
    ).body;
    expect(again.fulfillment.methods[0]).toEqual(method);
  });

  it('a destination edited under its id keeps the id; a country that names none is refused at its path', async () => {
    const client = gw.client('rest');
    const { id, lines } = await start(client, [line('pot_ceramic')]);
    const first = (
      await client.update(id, {
        line_items: lines,
        buyer: BUYER,
        fulfillment: { methods: [{ type: 'shipping', destinations: [CHICAGO] }] },
      })
    ).body;
    const destinationId = first.fulfillment.methods[0].destinations[0].id;
    const moved = { ...CHICAGO, id: destinationId, street_address: '200 W Madison St' };
    const edited = (
      await client.update(id, {
        line_items: lines,
        buyer: BUYER,
        fulfillment: { methods: [{ id: 'shipping_1', type: 'shipping', destinations: [moved] }] },
      })
    ).body;
    expect(edited.fulfillment.methods[0].destinations).toEqual([
      expect.objectContaining({ id: destinationId, street_address: '200 W Madison St' }),
    ]);
    const bad = (
      await client.update(id, {
        line_items: lines,
        buyer: BUYER,
        fulfillment: { methods: [{ type: 'shipping', destinations: [{ ...CHICAGO, address_country: 'Atlantis' }] }] },
      })
    ).body;
    expect(codes(bad)).toEqual([
      ['invalid_address', '$.fulfillment.methods[0].destinations[0].address_country'],
      ['missing', '$.fulfillment.methods[0].destinations'],
    ]);
  });

  it('a method type the store does not offer and an option no group has are recoverable messages at their request paths', async () => {
    const client = gw.client('rest');
    const { id, lines } = await start(client, [line('pot_ceramic')]);
    const methods = [
      { type: 'drone' },
      { type: 'shipping', destinations: [CHICAGO], groups: [{ id: `shipping_1.${b64('all')}`, selected_option_id: 'teleport' }] },
    ];
    const body = (await client.update(id, { line_items: lines, buyer: BUYER, fulfillment: { methods } })).body;
    expect(codes(body)).toEqual([
      ['invalid_option', '$.fulfillment.methods[1].groups[0].selected_option_id'],
      ['unsupported_fulfillment_method', '$.fulfillment.methods[0].type'],
      ['missing', '$.fulfillment.methods[0].groups[0].selected_option_id'],
    ]);
  });
});

describe('platforms without the fulfillment extension', () => {
  it('physical items need the store page (requires_escalation with continue_url); digital ones complete', async () => {
    const client = gw.client('rest', PROFILES.noFulfillment);
    const physical = (
      await client.create({
        line_items: [line('pot_ceramic')],
        buyer: BUYER,
        fulfillment: { methods: [{ type: 'shipping', destinations: [CHICAGO] }] },
      })
    ).body;
    expect(physical.status).toBe('requires_escalation');
    expect(physical.fulfillment).toBeUndefined();
    expect(physical.messages.map((m: any) => [m.code, m.severity])).toEqual([['fulfillment_unsupported', 'requires_buyer_input']]);
    expect(physical.continue_url).toBe(`${STOREFRONT}/cart/pot_ceramic:1?ref=${physical.id}`);
    const digital = (
      await client.create({
        line_items: [line('ebook_flower_care')],
        buyer: BUYER,
        context: { address_country: 'US', address_region: 'IL' },
      })
    ).body;
    expect(digital.status).toBe('ready_for_complete');
    expect((await client.complete(digital.id, pay('success_token'))).body.status).toBe('completed');
  });
});
