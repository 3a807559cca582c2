/** Small GraphQL shapes every resolver needs: global ids, connections, money. */
import { fromMinorUnits } from '../../adapters/kit/money.js';

export const gid = (type: string, id: string | number): string => `gid://shopify/${type}/${id}`;

/** Shopify's `DateTime`: UTC to the second, "2019-09-07T15:50:00Z" (the scalar's description, both APIs). */
export const dateTime = (ms: number): string => `${new Date(ms).toISOString().slice(0, 19)}Z`;

/** The id part of `gid://shopify/{type}/{id}` (query string dropped), or undefined for another type. */
export function gidId(type: string, value: string): string | undefined {
  const match = /^gid:\/\/shopify\/([A-Za-z]+)\/([^?/]+)/.exec(value);
  return match && match[1] === type ? match[2] : undefined;
}

export interface ConnectionArgs {
  first?: number | null;
  last?: number | null;
  after?: string | null;
  before?: string | null;
  reverse?: boolean | null;
}

const cursorOf = (index: number) => Buffer.from(`c${index}`).toString('base64url');
function indexOf(cursor: string): number | undefined {
  const match = /^c(\d+)$/.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
  return match ? Number(match[1]) : undefined;
}

/** Thrown for arguments Shopify refuses (answered as a GraphQL error). */
export class ArgumentError extends Error {}

/** Forward and backward paging over a list, with Shopify's 250-per-page cap. */
export function connection<T>(all: readonly T[], args: ConnectionArgs = {}) {
  const items = args.reverse ? [...all].reverse() : all;
  const { first, last } = args;
  if (first == null && last == null) throw new ArgumentError('you must provide one of first or last');
  if ((first ?? 0) > 250 || (last ?? 0) > 250) throw new ArgumentError('The maximum page size is 250');
  let start = 0;
  let end = items.length;
  if (args.after) start = (indexOf(args.after) ?? -1) + 1;
  if (args.before) end = Math.min(end, indexOf(args.before) ?? end);
  if (first != null) end = Math.min(end, start + first);
  if (last != null) start = Math.max(start, end - last);
  const edges = items.slice(start, end).map((node, i) => ({ cursor: cursorOf(start + i), node }));
  return {
    edges,
    nodes: edges.map((e) => e.node),
    pageInfo: {
      hasNextPage: end < items.length,
      hasPreviousPage: start > 0,
      startCursor: edges[0]?.cursor ?? null,
      endCursor: edges.at(-1)?.cursor ?? null,
    },
  };
}

/** Shopify's Decimal: trailing zeros dropped but one decimal kept ("35.0", "19.99", "5250.0", "10.745"). */
function decimal(amount: number, currencyCode: string): string {
  const [whole, fraction = ''] = fromMinorUnits(amount, currencyCode).split('.');
  return `${whole}.${fraction.replace(/0+$/, '') || '0'}`;
}

export const money = (amount: number, currencyCode: string) => ({ amount: decimal(amount, currencyCode), currencyCode });

/** Admin MoneyBag; the simulated shop presents in its own currency. */
export const moneyBag = (amount: number, currencyCode: string) => ({
  shopMoney: money(amount, currencyCode),
  presentmentMoney: money(amount, currencyCode),
});
