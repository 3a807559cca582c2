/**
 * Draft orders as Shopify's Admin API keeps them (simulators/shopify/draft-orders.ts): status,
 * the order a completed draft made, completion with payment pending, a second completion, the
 * draftOrders search syntax, and the inventory completion takes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startShopifySimulator, type ShopifySimulator } from '../../simulators/shopify/server.js';
import { CHICAGO, shopifyClient } from './shopify-client.js';

const CREATE = `mutation($input: DraftOrderInput!) { draftOrderCreate(input: $input) {
  draftOrder { id status order { id } } userErrors { field message } } }`;
const COMPLETE = `mutation($id: ID!, $pending: Boolean, $gateway: ID) {
  draftOrderComplete(id: $id, paymentPending: $pending, paymentGatewayId: $gateway) {
    draftOrder { id status completedAt order { id displayFinancialStatus paymentGatewayNames sourceName } }
    userErrors { field message } } }`;
const SEARCH = `query($q: String) { draftOrders(first: 50, query: $q) { nodes { id status tags order { id } } } }`;

let sim: ShopifySimulator;
let client: ReturnType<typeof shopifyClient>;
beforeAll(async () => {
  sim = await startShopifySimulator();
  client = shopifyClient(sim);
});
afterAll(() => sim.close());

const input = (tag: string, quantity = 1) => ({
  lineItems: [{ variantId: client.variant('bouquet_tulips'), quantity }],
  email: 'ann@example.com',
  shippingAddress: CHICAGO,
  shippingLine: { title: 'Standard Shipping' },
  tags: [tag],
});
const create = async (tag: string, quantity = 1) => {
  const { body } = await client.admin(CREATE, { input: input(tag, quantity) });
  return body.data.draftOrderCreate.draftOrder as { id: string; status: string };
};

describe('Shopify simulator: draft orders', () => {
  it('completes a draft into a PAID order the draft links to; completing it again answers a user error and no second order', async () => {
    const draft = await create('proto:chk_a');
    expect(draft.status).toBe('OPEN');
    const before = sim.orders.all().length;
    const done = (await client.admin(COMPLETE, { id: draft.id })).body.data.draftOrderComplete;
    expect(done.userErrors).toEqual([]);
    expect(done.draftOrder).toMatchObject({
      status: 'COMPLETED',
      order: { displayFinancialStatus: 'PAID', paymentGatewayNames: ['manual'], sourceName: 'shopify_draft_order' },
    });
    expect(done.draftOrder.completedAt).toEqual(expect.any(String));

    const again = (await client.admin(COMPLETE, { id: draft.id })).body.data.draftOrderComplete;
    expect(again).toEqual({ draftOrder: null, userErrors: [{ field: ['id'], message: 'This order has been paid' }] });
    expect(sim.orders.all()).toHaveLength(before + 1);
    // The way back to the order after a lost answer: the completed draft names it.
    const found = (await client.admin(SEARCH, { q: "tag:'proto:chk_a'" })).body.data.draftOrders.nodes;
    expect(found).toEqual([{ id: draft.id, status: 'COMPLETED', tags: ['proto:chk_a'], order: { id: done.draftOrder.order.id } }]);
  });

  it('completes with payment pending into a PENDING order, and refuses a payment gateway the shop does not have', async () => {
    const draft = await create('proto:chk_b');
    const unknown = (await client.admin(COMPLETE, { id: draft.id, gateway: 'gid://shopify/PaymentGateway/999' })).body.data
      .draftOrderComplete;
    expect(unknown).toEqual({ draftOrder: null, userErrors: [{ field: ['paymentGatewayId'], message: 'Payment gateway not found' }] });
    const done = (await client.admin(COMPLETE, { id: draft.id, pending: true })).body.data.draftOrderComplete;
    expect(done.draftOrder.order).toMatchObject({ displayFinancialStatus: 'PENDING', paymentGatewayNames: [] });
  });

  it('searches drafts by tag and status (OPEN, INVOICE_SENT, COMPLETED), leaving out a field it does not search', async () => {
    const open = await create('batch:1');
    const invoiced = await create('batch:1');
    const completed = await create('batch:1');
    await client.admin(`mutation($id: ID!) { draftOrderInvoiceSend(id: $id) { draftOrder { status } userErrors { message } } }`, {
      id: invoiced.id,
    });
    await client.admin(COMPLETE, { id: completed.id });
    const ids = async (q: string) => {
      const answer = await client.admin(SEARCH, { q });
      return { ids: answer.body.data.draftOrders.nodes.map((d: any) => d.id), search: answer.body.extensions.search };
    };
    expect((await ids("tag:'batch:1' AND status:open")).ids).toEqual([open.id]);
    expect((await ids("tag:'batch:1' AND status:invoice_sent")).ids).toEqual([invoiced.id]);
    expect((await ids("tag:'batch:1' AND NOT status:completed")).ids).toEqual([open.id, invoiced.id]);
    expect((await ids("tag:'batch:1' AND (status:open OR status:completed)")).ids).toEqual([open.id, completed.id]);
    // "If an invalid field is specified, the query is ignored": the term is left out, with a warning.
    const ignored = await ids("tag:'batch:1' AND checkout_id:chk_1");
    expect(ignored.ids).toEqual([open.id, invoiced.id, completed.id]);
    expect(ignored.search).toEqual([
      {
        path: ['draftOrders'],
        query: "tag:'batch:1' AND checkout_id:chk_1",
        warnings: [{ field: 'checkout_id', message: 'Invalid search field for this query.' }],
      },
    ]);
  });

  it('takes the ordered units out of tracked stock when it completes, without checking them', async () => {
    const stock = () => sim.shop.base.variants.get('bouquet_tulips')!.stock;
    const left = stock()!;
    const draft = await create('proto:stock', left + 2);
    const done = (await client.admin(COMPLETE, { id: draft.id })).body.data.draftOrderComplete;
    expect(done.userErrors).toEqual([]);
    expect(stock()).toBe(-2);
    expect(sim.shop.base.variants.get('bouquet_tulips')!.variant.availability.status).toBe('out_of_stock');
  });
});
