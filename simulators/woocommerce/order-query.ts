/**
 * Which orders `GET /wc/v3/orders` returns, filter by filter
 * (includes/rest-api/Controllers/Version3/class-wc-rest-orders-controller.php, Version2/
 * class-wc-rest-orders-v2-controller.php, Version3/class-wc-rest-crud-controller.php
 * prepare_objects_query; HPOS: src/Internal/DataStores/Orders/OrdersTableQuery.php and
 * OrdersTableSearchQuery.php):
 * - `status`: a list (comma-separated) of any, trash, auto-draft or an order status (checkout-draft
 *   included); default `any`, which is every status but trash, Store API checkout drafts included;
 *   another value is 400 `rest_invalid_param`;
 * - `after` / `before` compare the creation date, `modified_after` / `modified_before` the
 *   modification date, strictly (WP_Date_Query `>` / `<`), against the site-local column
 *   (post_date, post_modified) or, with `dates_are_gmt`, the GMT one; the value is what
 *   site-time.ts dateQueryValue makes of it: a UTC time written without "Z" and sent without
 *   `dates_are_gmt` is read as the site's wall clock, so west of UTC it lies in the future and
 *   just-placed orders are not "after" it; HPOS (map_gmt_and_post_keys_to_hpos_keys) turns the
 *   local value into GMT and compares the GMT column, with the same outcome. A value that is not
 *   an RFC 3339 date-time is 400 `rest_invalid_param` (rest_validate_request_arg);
 * - `search`: the order id, the transaction id (contains), the billing email (starts with), the
 *   billing and shipping address indexes (names, company, address, city, state, postcode,
 *   country, email, phone; contains) and the line item names (contains), never other order meta;
 * - `include`, `exclude`, `customer`, `product`; any other parameter (meta_key,
 *   meta_value, ...) is no filter at all: WordPress passes on only the registered arguments.
 */
import type { OrderStatus, SimOrder } from './model.js';
import { dateQueryValue, isRestDate, wallClock } from './site-time.js';
import type { WooStore } from './store.js';
import { invalidParam } from './wp-error.js';

const STATUSES: Array<OrderStatus | 'any' | 'auto-draft'> = [
  'any',
  'trash',
  'auto-draft',
  'pending',
  'processing',
  'on-hold',
  'completed',
  'cancelled',
  'refunded',
  'failed',
  'checkout-draft',
];

const ids = (value: string | undefined): number[] =>
  (value ?? '')
    .split(/[,\s]+/)
    .filter(Boolean)
    .map(Number)
    .filter((n) => Number.isInteger(n) && n > 0);

/** rest_sanitize_boolean after rest_is_boolean. */
function booleanParam(name: string, value: string | undefined): boolean {
  if (value === undefined) return false;
  const lower = value.toLowerCase();
  if (!['true', 'false', '1', '0'].includes(lower)) throw invalidParam(name, `${name} is not of type boolean.`);
  return lower === 'true' || lower === '1';
}

function statusFilter(value: string | undefined): (o: SimOrder) => boolean {
  const wanted = (value ?? 'any').split(/[,\s]+/).filter(Boolean);
  wanted.forEach((status, i) => {
    if (!STATUSES.includes(status as OrderStatus)) throw invalidParam('status', `status[${i}] is not one of ${STATUSES.join(', ')}.`);
  });
  if (wanted.includes('any')) return (o) => o.status !== 'trash';
  return (o) => wanted.includes(o.status);
}

/** The date filters: each parameter against the local or the GMT column, as WP_Date_Query compares them. */
function dateFilters(store: WooStore, q: Record<string, string>): Array<(o: SimOrder) => boolean> {
  const zone = store.settings.timezone;
  const gmt = booleanParam('dates_are_gmt', q.dates_are_gmt);
  const column = (date: Date) => wallClock(date, gmt ? 'UTC' : zone).replace('T', ' ');
  const filters: Array<(o: SimOrder) => boolean> = [];
  const add = (param: string, of: (o: SimOrder) => Date, after: boolean) => {
    const value = q[param];
    if (value === undefined) return;
    if (!isRestDate(value)) throw invalidParam(param, 'Invalid date.');
    const bound = dateQueryValue(value, zone);
    filters.push((o) => (after ? column(of(o)) > bound : column(of(o)) < bound));
  };
  add('after', (o) => o.dateCreated, true);
  add('before', (o) => o.dateCreated, false);
  add('modified_after', (o) => o.dateModified, true);
  add('modified_before', (o) => o.dateModified, false);
  return filters;
}

/** OrdersTableSearchQuery: id, transaction id, billing email, address indexes, line item names. */
function matchesSearch(order: SimOrder, term: string): boolean {
  const lower = term.toLowerCase();
  if (String(Number.parseInt(term, 10)) === term && order.id === Number(term)) return true;
  const addressIndex = (a: Record<string, string>) => Object.values(a).join(' ').toLowerCase();
  return (
    order.transactionId.toLowerCase().includes(lower) ||
    order.billing.email.toLowerCase().startsWith(lower) ||
    addressIndex(order.billing as unknown as Record<string, string>).includes(lower) ||
    addressIndex(order.shipping as unknown as Record<string, string>).includes(lower) ||
    order.lines.some((l) => l.name.toLowerCase().includes(lower))
  );
}

export function queryOrders(store: WooStore, q: Record<string, string>): SimOrder[] {
  const filters: Array<(o: SimOrder) => boolean> = [statusFilter(q.status), ...dateFilters(store, q)];
  if (q.include) filters.push((o) => ids(q.include).includes(o.id));
  if (q.exclude) filters.push((o) => !ids(q.exclude).includes(o.id));
  if (q.customer !== undefined) filters.push((o) => o.customerId === Number(q.customer));
  if (q.product) filters.push((o) => o.lines.some((l) => l.productId === Number(q.product)));
  if (q.search) filters.push((o) => matchesSearch(o, q.search!));
  return [...store.orders.values()].filter((o) => filters.every((f) => f(o)));
}
