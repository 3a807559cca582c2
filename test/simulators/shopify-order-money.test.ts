/**
 * Order and cart money as Shopify's 2026-10 schemas define each field (simulators/shopify/order-node.ts,
 * line-money.ts, cart-node.ts): which line figures leave out order-level and code discounts, each
 * line's share of the tax, and what includes tax on a shop whose prices include it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startShopifySimulator, type ShopifySimulator } from '../../simulators/shopify/server.js';
import { CHICAGO, NEW_YORK, shopifyClient } from './shopify-client.js';

const LINES = `query($id: ID!) { order(id: $id) {
  taxesIncluded subtotalPriceSet { shopMoney { amount } } cartDiscountAmountSet { shopMoney { amount } }
  totalDiscountsSet { shopMoney { amount } } totalTaxSet { shopMoney { amount } } totalPriceSet { shopMoney { amount } }
  shippingLine { originalPriceSet { shopMoney { amount } } discountedPriceSet { shopMoney { amount } }
    discountAllocations { allocatedAmountSet { shopMoney { amount } } } }
  lineItems(first: 10) { nodes {
    sku
    originalUnitPriceSet { shopMoney { amount } } originalTotalSet { shopMoney { amount } }
    totalDiscountSet { shopMoney { amount } }
    discountedTotalSet { shopMoney { amount } }
    withCodes: discountedTotalSet(withCodeDiscounts: true) { shopMoney { amount } }
    discountedUnitPriceSet { shopMoney { amount } } discountedUnitPriceAfterAllDiscountsSet { shopMoney { amount } }
    discountAllocations { allocatedAmountSet { shopMoney { amount } }
      discountApplication { targetSelection allocationMethod
        ... on DiscountCodeApplication { code } ... on AutomaticDiscountApplication { title } } }
    taxLines { title rate priceSet { shopMoney { amount } } }
  } } } }`;

const amount = (bag: { shopMoney: { amount: string } }) => bag.shopMoney.amount;

let sim: ShopifySimulator;
let client: ReturnType<typeof shopifyClient>;
beforeAll(async () => {
  sim = await startShopifySimulator();
  client = shopifyClient(sim);
});
afterAll(() => sim.close());

describe('Shopify simulator: order line money', () => {
  it('leaves order-level discounts out of line discount totals, code discounts out by default, and splits the tax by line', async () => {
    // Roses x2 (ROSES15: a code on entitled items), tulips x2 (automatic 10 % on 2+), an e-book;
    // 10OFF is a code on the whole order. New York taxes 8.875 %.
    const cart = await client.cart({
      lines: [
        { merchandiseId: client.variant('bouquet_roses'), quantity: 2 },
        { merchandiseId: client.variant('bouquet_tulips'), quantity: 2 },
        { merchandiseId: client.variant('ebook_flower_care'), quantity: 1 },
      ],
      discountCodes: ['10off', 'ROSES15'],
      delivery: { addresses: [{ selected: true, address: { deliveryAddress: NEW_YORK } }] },
    });
    // The cart: subtotal before cart-level discounts; the checkout charge equals it (no deferred payment); no tax.
    expect(cart.cost).toEqual({
      subtotalAmount: { amount: '123.55' },
      totalAmount: { amount: '110.25' },
      checkoutChargeAmount: { amount: '123.55' },
      totalTaxAmount: null,
    });
    const paid = await client.pay(cart.checkoutUrl);
    const order = (await client.admin(LINES, { id: paid.order!.id })).body.data.order;
    const [roses, tulips, ebook] = order.lineItems.nodes;

    expect(amount(roses.originalTotalSet)).toBe('70.0');
    expect(amount(roses.totalDiscountSet)).toBe('9.45'); // ROSES15 only: 10OFF's 7.00 is order-level
    expect(amount(roses.discountedTotalSet)).toBe('70.0'); // ROSES15 is a code: left out by default
    expect(amount(roses.withCodes)).toBe('60.55');
    expect(amount(roses.discountedUnitPriceSet)).toBe('35.0');
    expect(amount(roses.discountedUnitPriceAfterAllDiscountsSet)).toBe('26.78'); // (70 - 9.45 - 7) / 2
    expect(
      roses.discountAllocations.map((a: any) => [
        amount(a.allocatedAmountSet),
        a.discountApplication.code,
        a.discountApplication.targetSelection,
      ]),
    ).toEqual([
      ['7.0', '10OFF', 'ALL'],
      ['9.45', 'ROSES15', 'ENTITLED'],
    ]);
    expect(amount(tulips.totalDiscountSet)).toBe('6.0'); // the automatic 10 %; 10OFF's 5.40 left out
    expect(amount(tulips.discountedTotalSet)).toBe('54.0'); // automatic discounts are in it
    expect(amount(ebook.totalDiscountSet)).toBe('0.0');
    expect(amount(ebook.discountedTotalSet)).toBe('9.0');

    expect(amount(order.cartDiscountAmountSet)).toBe('13.3'); // 10OFF: 7.00 + 5.40 + 0.90
    expect(amount(order.totalDiscountsSet)).toBe('33.75'); // every discount, the freed 5.00 standard shipping too
    expect(amount(order.subtotalPriceSet)).toBe('110.25');
    expect(order.shippingLine.discountAllocations.map((a: any) => amount(a.allocatedAmountSet))).toEqual(['5.0']);
    expect(amount(order.shippingLine.discountedPriceSet)).toBe('0.0');

    // 8.875 % of 110.25 = 9.78, split by what each line costs after every discount.
    const taxes = order.lineItems.nodes.map((l: any) => l.taxLines.map((t: any) => [t.title, t.rate, amount(t.priceSet)]));
    expect(taxes).toEqual([
      [['New York sales tax', 0.08875, '4.75']],
      [['New York sales tax', 0.08875, '4.31']],
      [['New York sales tax', 0.08875, '0.72']],
    ]);
    expect(amount(order.totalTaxSet)).toBe('9.78');
    expect(order.taxesIncluded).toBe(false);
  });
});

describe('Shopify simulator: a shop whose prices include tax', () => {
  it('keeps the tax inside every price: cart total, draft calculation, order lines and totals', async () => {
    const included = await startShopifySimulator({ taxesIncluded: true });
    try {
      const shop = shopifyClient(included);
      const roses = [{ merchandiseId: shop.variant('bouquet_roses'), quantity: 2 }];
      const cart = await shop.cart({ lines: roses, delivery: { addresses: [{ selected: true, address: { deliveryAddress: CHICAGO } }] } });
      expect(cart.cost).toEqual({
        subtotalAmount: { amount: '70.0' },
        totalAmount: { amount: '70.0' },
        checkoutChargeAmount: { amount: '70.0' },
        totalTaxAmount: null,
      });

      const calculated = await shop.admin(
        `mutation($input: DraftOrderInput!) { draftOrderCalculate(input: $input) { calculatedDraftOrder {
          taxesIncluded totalTaxSet { shopMoney { amount } } totalPriceSet { shopMoney { amount } }
          lineItems { originalTotalSet { shopMoney { amount } } } } userErrors { message } } }`,
        {
          input: {
            lineItems: [{ variantId: shop.variant('bouquet_roses'), quantity: 2 }],
            shippingAddress: CHICAGO,
            shippingLine: { title: 'Standard Shipping' },
          },
        },
      );
      // Illinois 6.25 % inside 70.00: 70 x 0.0625 / 1.0625 = 4.12; nothing is added.
      expect(calculated.body.data.draftOrderCalculate.calculatedDraftOrder).toEqual({
        taxesIncluded: true,
        totalTaxSet: { shopMoney: { amount: '4.12' } },
        totalPriceSet: { shopMoney: { amount: '70.0' } },
        lineItems: [{ originalTotalSet: { shopMoney: { amount: '70.0' } } }],
      });

      const paid = await shop.pay(cart.checkoutUrl);
      const order = (await shop.admin(LINES, { id: paid.order!.id })).body.data.order;
      expect(order.taxesIncluded).toBe(true);
      expect(amount(order.totalPriceSet)).toBe('70.0');
      expect(amount(order.subtotalPriceSet)).toBe('70.0');
      expect(amount(order.totalTaxSet)).toBe('4.12');
      const [line] = order.lineItems.nodes;
      expect(amount(line.originalTotalSet)).toBe('70.0');
      expect(amount(line.originalUnitPriceSet)).toBe('35.0');
      expect(line.taxLines.map((t: any) => amount(t.priceSet))).toEqual(['4.12']);
    } finally {
      await included.close();
    }
  });
});
