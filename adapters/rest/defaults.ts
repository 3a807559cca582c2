/**
 * What the adapter does for a store that follows the gateway's documented store API
 * (docs/adapters/rest-store-api.yaml): its bodies are the contract's own shapes with amounts in
 * minor units, so most mappings are `$` (the answer as it is). A tenant file overrides any field
 * of any operation; whatever it leaves out comes from here.
 */
import type { OperationName, OperationSettings, WebhookSettings } from './settings.js';

export type ResolvedOperation = Required<Pick<OperationSettings, 'method' | 'path'>> & Omit<OperationSettings, 'method' | 'path'>;

export const DEFAULT_OPERATIONS: Record<OperationName, ResolvedOperation> = {
  search: {
    method: 'GET',
    path: '/products',
    query:
      '{"q": text, "category": categories, "min_price": price.min, "max_price": price.max, "currency": price.currency, ' +
      '"limit": limit, "cursor": cursor, "page": page, "offset": offset}',
    response: '{"products": [products], "totalCount": totalCount, "cursor": nextCursor, "more": hasMore}',
  },
  lookup: { method: 'GET', path: '/products/lookup', query: '{"id": ids}', response: '[results]' },
  quote_create: {
    method: 'POST',
    path: '/carts',
    body: '$sift($, function($v, $k) {$k != "handle"})',
    response: '$merge([$, {"handle": cartId}])',
  },
  quote_update: {
    method: 'PUT',
    path: '/carts/{handle}',
    body: '$sift($, function($v, $k) {$k != "handle"})',
    response: '$merge([$, {"handle": cartId}])',
  },
  checkout_url: { method: 'POST', path: '/carts/{handle}/checkout', body: '{"reference": reference}', response: '{"url": url}' },
  place_order: {
    method: 'POST',
    path: '/orders',
    body:
      '{"cartId": quote.handle, "reference": reference, "expectedTotal": expectedTotal, "buyer": buyer, ' +
      '"billingAddress": billingAddress, "payment": payment}',
    response: '$',
  },
  find_order: {
    method: 'GET',
    path: '/orders',
    query: '{"reference": reference, "storeReference": storeReference}',
    response: 'orders[0] ? {"orderId": orders[0].orderId, "permalinkUrl": orders[0].permalinkUrl} : null',
  },
  get_order: { method: 'GET', path: '/orders/{orderId}', response: '$' },
  orders_changed_since: {
    method: 'GET',
    path: '/orders/changes',
    query: '{"since": since, "limit": limit, "cursor": cursor, "page": page, "offset": offset}',
    response: '{"changes": [changes], "cursor": nextCursor, "more": hasMore}',
  },
  ping: { method: 'GET', path: '/health' },
  pickup_locations: { method: 'GET', path: '/locations', response: '[locations]' },
  register_webhook: { method: 'POST', path: '/webhooks', body: '{"url": url, "events": events}', response: '$' },
  // Every refusal (unknown email, wrong password, a locked account) is one 422 and the same null; a 401 or 403 is
  // the gateway's own credentials refused, an error.
  authenticate_customer: {
    method: 'POST',
    path: '/customers/login',
    body: '{"email": email, "password": password}',
    accept: [422],
    response: '$status < 300 ? {"customerId": customerId, "email": email ? email : $request.email} : null',
  },
};

export type ResolvedWebhooks = Required<Omit<WebhookSettings, 'signature_pattern' | 'tolerance_seconds'>> &
  Pick<WebhookSettings, 'signature_pattern' | 'tolerance_seconds'>;

export const DEFAULT_WEBHOOKS: Omit<ResolvedWebhooks, 'secret'> = {
  signature_header: 'X-Store-Signature',
  signed_payload: '{body}',
  algorithm: 'sha256',
  encoding: 'base64',
  event: {
    id: 'id',
    type: 'type',
    order_id: 'orderId',
    reference: 'reference',
    store_reference: 'storeReference',
    order_types: ['order.created', 'order.updated'],
  },
};
