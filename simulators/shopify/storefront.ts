/** The Storefront API root: catalog queries and the Cart API mutations. */
import { catalogQueries, type CatalogContext } from './catalog.js';
import { randomUUID } from 'node:crypto';
import { cartNode } from './cart-node.js';
import type { Attribute, CartPreferences, CartRecord, CartWarning, Carts, UserError } from './carts.js';
import type { DeliveryAddressInput } from './addresses.js';
import { gid } from './graph.js';
import { answeredLanguage, DEFAULT_LANGUAGE, languageNode } from './translations.js';
import type { ShopData } from './shop-data.js';

export interface StorefrontRequest {
  /** `@inContext(country:, language:)` of the operation. */
  country: string | null;
  language?: string | null;
  checkoutUrl: (cart: CartRecord) => string;
}

interface CartLineInput {
  merchandiseId: string;
  quantity?: number | null;
  attributes?: Attribute[] | null;
}

interface SelectableAddressInput {
  address: { deliveryAddress?: DeliveryAddressInput | null; copyFromCustomerAddressId?: string | null };
  selected?: boolean | null;
  oneTimeUse?: boolean | null;
}

interface CartInput {
  lines?: CartLineInput[] | null;
  discountCodes?: string[] | null;
  attributes?: Attribute[] | null;
  note?: string | null;
  buyerIdentity?: BuyerIdentityInput | null;
  delivery?: { addresses?: SelectableAddressInput[] | null } | null;
}

interface BuyerIdentityInput {
  email?: string | null;
  phone?: string | null;
  countryCode?: string | null;
  customerAccessToken?: string | null;
  preferences?: CartPreferences | null;
}

const NO_CART: UserError = { field: ['cartId'], message: 'The specified cart does not exist.', code: 'INVALID' };

export function storefrontRoot(shop: ShopData, carts: Carts, request: StorefrontRequest) {
  const market = shop.market(request.country);
  const published = market.languages ?? [DEFAULT_LANGUAGE];
  const language = answeredLanguage(request.language, published);
  const ctx: CatalogContext = { shop, market, store: shop.store(market), language };

  /**
   * Runs a cart mutation all or nothing and answers with Shopify's payload: the cart, or null
   * with userErrors (nothing changed); warnings for lines capped by stock and codes that do not apply.
   */
  const mutate = (
    cartId: string | null,
    change: (cart: CartRecord, errors: UserError[], warnings: CartWarning[]) => void,
    create?: () => CartRecord,
  ) => {
    const cart = create ? create() : cartId ? carts.find(cartId) : undefined;
    if (!cart) return { cart: null, userErrors: [NO_CART], warnings: [] };
    const before = structuredClone(cart);
    const errors: UserError[] = [];
    const warnings: CartWarning[] = [];
    change(cart, errors, warnings);
    if (errors.length) {
      if (create) carts.remove(cart);
      else Object.assign(cart, before);
      return { cart: null, userErrors: errors, warnings: [] };
    }
    carts.touch(cart);
    warnings.push(...carts.stockWarnings(cart), ...carts.codeWarnings(cart, carts.price(cart)));
    return { cart: cartNode(carts, cart, request.checkoutUrl(cart), language), userErrors: [], warnings };
  };

  const addAddresses = (cart: CartRecord, inputs: SelectableAddressInput[], errors: UserError[]) => {
    if (inputs.length) carts.addressChanged(cart);
    for (const input of inputs) {
      const address = input.address.deliveryAddress;
      if (!address) {
        errors.push({ field: ['addresses', 'address'], message: 'A delivery address is required.', code: 'INVALID' });
        continue;
      }
      if (input.selected) for (const a of cart.addresses) a.selected = false;
      cart.addresses.push({
        id: `${gid('CartSelectableAddress', randomUUID())}?cart=${cart.token}`,
        address,
        selected: !!input.selected,
        oneTimeUse: !!input.oneTimeUse,
      });
    }
    if (cart.addresses.filter((a) => a.selected).length > 1)
      errors.push({
        field: ['addresses'],
        message: 'Only one address can be selected.',
        code: 'ONLY_ONE_DELIVERY_ADDRESS_CAN_BE_SELECTED',
      });
  };

  const setBuyer = (cart: CartRecord, input: BuyerIdentityInput, errors: UserError[]) => {
    if (input.customerAccessToken)
      errors.push({ field: ['buyerIdentity', 'customerAccessToken'], message: 'Customer access token is invalid.', code: 'INVALID' });
    if (input.email !== undefined) cart.buyer.email = input.email;
    if (input.phone !== undefined) cart.buyer.phone = input.phone;
    if (input.countryCode !== undefined) cart.buyer.countryCode = input.countryCode;
    if (input.preferences !== undefined) cart.buyer.preferences = input.preferences;
  };

  const addLines = (cart: CartRecord, lines: CartLineInput[], errors: UserError[], warnings: CartWarning[]) => {
    lines.forEach((line, index) => {
      const quantity = line.quantity ?? 1;
      if (quantity < 1)
        errors.push({ field: ['lines', String(index), 'quantity'], message: 'The quantity must be greater than 0.', code: 'INVALID' });
      else carts.addLine(cart, { merchandiseId: line.merchandiseId, quantity, attributes: line.attributes ?? [], index }, warnings, errors);
    });
  };

  return {
    ...catalogQueries(ctx),
    cart: ({ id }: { id: string }) => {
      const cart = carts.find(id);
      return cart ? cartNode(carts, cart, request.checkoutUrl(cart), language) : null;
    },
    shop: {
      id: gid('Shop', 1),
      name: 'Petal & Stem Flower Co.',
      description: 'Fresh flowers and plants, delivered.',
      moneyFormat: '${{amount}}',
      primaryDomain: { host: 'petal-and-stem.example', url: 'https://petal-and-stem.example', sslEnabled: true },
      shipsToCountries: ['US', 'CA'],
      paymentSettings: {
        countryCode: 'US',
        currencyCode: shop.shopCurrency,
        enabledPresentmentCurrencies: shop.markets.map((m) => m.currency),
        acceptedCardBrands: ['VISA', 'MASTERCARD', 'AMERICAN_EXPRESS'],
        supportedDigitalWallets: [],
        cardVaultUrl: 'https://elb.deposit.shopifycs.com/sessions',
      },
    },
    localization: {
      country: {
        isoCode: market.country,
        name: market.country,
        currency: { isoCode: market.currency, name: market.currency, symbol: market.currency },
      },
      availableCountries: shop.markets.map((m) => ({
        isoCode: m.country,
        name: m.country,
        currency: { isoCode: m.currency, name: m.currency, symbol: m.currency },
      })),
      language: languageNode(language),
      availableLanguages: published.map(languageNode),
    },

    cartCreate: ({ input }: { input?: CartInput | null }) => {
      const data = input ?? {};
      return mutate(
        null,
        (cart, errors, warnings) => {
          if (data.buyerIdentity) setBuyer(cart, data.buyerIdentity, errors);
          addLines(cart, data.lines ?? [], errors, warnings);
          cart.discountCodes = data.discountCodes ?? [];
          cart.attributes = data.attributes ?? [];
          cart.note = data.note ?? null;
          addAddresses(cart, data.delivery?.addresses ?? [], errors);
        },
        () => carts.create(data.buyerIdentity?.countryCode ?? request.country),
      );
    },
    cartLinesAdd: ({ cartId, lines }: { cartId: string; lines: CartLineInput[] }) =>
      mutate(cartId, (cart, errors, warnings) => addLines(cart, lines, errors, warnings)),
    cartLinesUpdate: ({
      cartId,
      lines,
    }: {
      cartId: string;
      lines: Array<{ id?: string | null; quantity?: number | null; merchandiseId?: string | null; attributes?: Attribute[] | null }>;
    }) =>
      mutate(cartId, (cart, errors, warnings) => {
        for (const update of lines) {
          const line = cart.lines.find((l) => l.id === update.id);
          if (!line) {
            errors.push({
              field: ['lines', 'id'],
              message: `The merchandise line with id ${update.id} does not exist.`,
              code: 'INVALID_MERCHANDISE_LINE',
            });
            continue;
          }
          if (update.attributes) line.attributes = update.attributes;
          if (update.quantity === 0) cart.lines.splice(cart.lines.indexOf(line), 1);
          else if (update.quantity != null) {
            const allowed = carts.cap(line.variantId, update.quantity, line.id, warnings);
            if (allowed === 0) cart.lines.splice(cart.lines.indexOf(line), 1);
            else line.quantity = allowed;
          }
        }
      }),
    cartLinesRemove: ({ cartId, lineIds }: { cartId: string; lineIds: string[] }) =>
      mutate(cartId, (cart, errors) => {
        for (const id of lineIds) {
          const index = cart.lines.findIndex((l) => l.id === id);
          if (index < 0)
            errors.push({
              field: ['lineIds'],
              message: `The merchandise line with id ${id} does not exist.`,
              code: 'INVALID_MERCHANDISE_LINE',
            });
          else cart.lines.splice(index, 1);
        }
      }),
    cartDiscountCodesUpdate: ({ cartId, discountCodes }: { cartId: string; discountCodes?: string[] | null }) =>
      mutate(cartId, (cart) => {
        cart.discountCodes = discountCodes ?? [];
      }),
    cartBuyerIdentityUpdate: ({ cartId, buyerIdentity }: { cartId: string; buyerIdentity: BuyerIdentityInput }) =>
      mutate(cartId, (cart, errors) => setBuyer(cart, buyerIdentity, errors)),
    // The list given becomes the cart's attributes: one left out is removed (not documented; reported in
    // https://github.com/Shopify/hydrogen/issues/2272: "If I want to remove it, just don't ... add it").
    cartAttributesUpdate: ({ cartId, attributes }: { cartId: string; attributes: Attribute[] }) =>
      mutate(cartId, (cart) => {
        cart.attributes = [...new Map(attributes.map((a) => [a.key, a.value]))].map(([key, value]) => ({ key, value }));
      }),
    cartNoteUpdate: ({ cartId, note }: { cartId: string; note: string }) =>
      mutate(cartId, (cart) => {
        cart.note = note;
      }),
    cartDeliveryAddressesAdd: ({ cartId, addresses }: { cartId: string; addresses: SelectableAddressInput[] }) =>
      mutate(cartId, (cart, errors) => addAddresses(cart, addresses, errors)),
    cartDeliveryAddressesReplace: ({ cartId, addresses }: { cartId: string; addresses: SelectableAddressInput[] }) =>
      mutate(cartId, (cart, errors) => {
        cart.addresses = [];
        cart.selected.clear();
        addAddresses(cart, addresses, errors);
      }),
    cartDeliveryAddressesUpdate: ({
      cartId,
      addresses,
    }: {
      cartId: string;
      addresses: Array<Partial<SelectableAddressInput> & { id: string }>;
    }) =>
      mutate(cartId, (cart, errors) => {
        for (const update of addresses) {
          const existing = cart.addresses.find((a) => a.id === update.id);
          if (!existing) {
            errors.push({
              field: ['addresses', 'id'],
              message: 'The delivery address does not exist.',
              code: 'INVALID_DELIVERY_ADDRESS_ID',
            });
            continue;
          }
          if (update.address?.deliveryAddress) {
            existing.address = update.address.deliveryAddress;
            carts.addressChanged(cart);
          }
          if (update.selected) for (const a of cart.addresses) a.selected = a === existing;
          else if (update.selected === false) existing.selected = false;
          if (update.oneTimeUse != null) existing.oneTimeUse = update.oneTimeUse;
        }
        cart.selected.clear();
      }),
    cartDeliveryAddressesRemove: ({ cartId, addressIds }: { cartId: string; addressIds: string[] }) =>
      mutate(cartId, (cart) => {
        cart.addresses = cart.addresses.filter((a) => !addressIds.includes(a.id));
        cart.selected.clear();
      }),
    cartSelectedDeliveryOptionsUpdate: ({
      cartId,
      selectedDeliveryOptions,
    }: {
      cartId: string;
      selectedDeliveryOptions: Array<{ deliveryGroupId: string; deliveryOptionHandle: string }>;
    }) =>
      mutate(cartId, (cart, errors) => {
        if (carts.carrierPending(cart)) {
          errors.push({ field: ['selectedDeliveryOptions'], message: 'The delivery groups are pending.', code: 'PENDING_DELIVERY_GROUPS' });
          return;
        }
        const priced = carts.price(cart);
        const options = new Set(priced.quote.fulfillment?.[0]?.groups[0]?.options.map((o) => o.id) ?? []);
        for (const s of selectedDeliveryOptions) {
          if (s.deliveryGroupId !== priced.groupId) {
            errors.push({
              field: ['selectedDeliveryOptions', 'deliveryGroupId'],
              message: 'The delivery group does not exist.',
              code: 'INVALID_DELIVERY_GROUP',
            });
          } else if (!options.has(priced.rateByHandle.get(s.deliveryOptionHandle) ?? '')) {
            errors.push({
              field: ['selectedDeliveryOptions', 'deliveryOptionHandle'],
              message: 'The delivery option is not available.',
              code: 'INVALID_DELIVERY_OPTION',
            });
          } else cart.selected.set(s.deliveryGroupId, s.deliveryOptionHandle);
        }
      }),
  };
}
