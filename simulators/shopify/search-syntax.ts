/**
 * Shopify's API search syntax (https://shopify.dev/docs/api/usage/search-syntax), for the Admin
 * `query:` arguments: terms joined by whitespace (AND implied), `AND`, `OR`, parentheses, `-` or
 * `NOT ` before a term; a term is a bare value or `name` `:` / `:<` / `:>` / `:<=` / `:>=` value;
 * a value is a word or a single- or double-quoted string ("Date values must be a string
 * surrounded by quotes"), a trailing `*` a prefix match.
 *
 * A field the resource does not search is not an error: "if an invalid field is specified, the
 * query is ignored and all results are returned" (the same page; here the term is left out, so
 * the rest of the query still applies); the answer carries a warning in `extensions.search`.
 * Times without an offset (and bare dates) are read in the shop's time zone (`Shop.ianaTimezone`):
 * an assumption, the page does not say; a time with `Z` or an offset is exact.
 */
import { ArgumentError } from './graph.js';
import { timeRange } from './shop-time.js';

export type Comparator = ':' | ':<' | ':>' | ':<=' | ':>=';

export interface Term {
  field: string | null;
  op: Comparator;
  value: string;
}

type Node = { kind: 'term'; term: Term } | { kind: 'not'; node: Node } | { kind: 'and' | 'or'; nodes: Node[] };

/** How one resource answers its search fields; `default` matches a bare value. */
export interface SearchFields<T> {
  default: (record: T, value: string) => boolean;
  fields: Record<string, (record: T, term: Term) => boolean>;
}

export interface SearchWarning {
  field: string;
  message: string;
}

const TOKEN = /\s*(\(|\)|-(?=\S)|(?:[A-Za-z_][\w.]*)(?::(?:<=|>=|<|>)?)?(?:'(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*"|[^\s()]*)|\S+)/y;

function tokens(query: string): string[] {
  const out: string[] = [];
  TOKEN.lastIndex = 0;
  let match: RegExpExecArray | null;
  while (TOKEN.lastIndex < query.length && (match = TOKEN.exec(query))) if (match[1]) out.push(match[1]);
  return out;
}

const unquote = (v: string) => (/^(['"])[\s\S]*\1$/.test(v) ? v.slice(1, -1).replace(/\\(.)/g, '$1') : v);

function termOf(token: string): Term {
  const m = /^([A-Za-z_][\w.]*)(:(?:<=|>=|<|>)?)([\s\S]*)$/.exec(token);
  if (!m) return { field: null, op: ':', value: unquote(token) };
  return { field: m[1]!, op: m[2] as Comparator, value: unquote(m[3]!) };
}

/** Parses a query into a tree: OR binds loosest, then AND (explicit or implied), then NOT. */
function parseSearch(query: string): Node | null {
  const list = tokens(query);
  let at = 0;
  const peek = () => list[at];
  const orExpr = (): Node => {
    const nodes = [andExpr()];
    while (peek() === 'OR') {
      at++;
      nodes.push(andExpr());
    }
    return nodes.length === 1 ? nodes[0]! : { kind: 'or', nodes };
  };
  const andExpr = (): Node => {
    const nodes = [unary()];
    while (at < list.length && peek() !== ')' && peek() !== 'OR') {
      if (peek() === 'AND') at++;
      nodes.push(unary());
    }
    return nodes.length === 1 ? nodes[0]! : { kind: 'and', nodes };
  };
  const unary = (): Node => {
    const token = list[at++];
    if (token === undefined) throw new ArgumentError(`incomplete search query: ${query}`);
    if (token === '-' || token === 'NOT') return { kind: 'not', node: unary() };
    if (token === '(') {
      const inner = orExpr();
      if (list[at++] !== ')') throw new ArgumentError(`unbalanced parentheses in search query: ${query}`);
      return inner;
    }
    return { kind: 'term', term: termOf(token) };
  };
  if (list.length === 0) return null;
  const tree = orExpr();
  if (at < list.length) throw new ArgumentError(`unexpected ${list[at]} in search query: ${query}`);
  return tree;
}

/** The fields of a query the resource does not search. */
function unknownFields<T>(node: Node, spec: SearchFields<T>, out: Set<string>): Set<string> {
  if (node.kind === 'term') {
    if (node.term.field !== null && !spec.fields[node.term.field]) out.add(node.term.field);
  } else if (node.kind === 'not') unknownFields(node.node, spec, out);
  else for (const n of node.nodes) unknownFields(n, spec, out);
  return out;
}

/** The records a query selects, and the warnings for the fields it left out. */
export function search<T>(
  records: T[],
  query: string | null | undefined,
  spec: SearchFields<T>,
): { found: T[]; warnings: SearchWarning[] } {
  const tree = parseSearch(query ?? '');
  if (!tree) return { found: records, warnings: [] };
  // null: the term is left out (a field the resource does not search).
  const test = (node: Node, record: T): boolean | null => {
    if (node.kind === 'term') {
      const { field } = node.term;
      if (field === null) return spec.default(record, node.term.value);
      const check = spec.fields[field];
      return check ? check(record, node.term) : null;
    }
    if (node.kind === 'not') {
      const inner = test(node.node, record);
      return inner === null ? null : !inner;
    }
    const results = node.nodes.map((n) => test(n, record)).filter((r): r is boolean => r !== null);
    if (results.length === 0) return null;
    return node.kind === 'and' ? results.every(Boolean) : results.some(Boolean);
  };
  const warnings = [...unknownFields(tree, spec, new Set())].map((field) => ({ field, message: 'Invalid search field for this query.' }));
  return { found: records.filter((r) => test(tree, r) ?? true), warnings };
}

/** Case-insensitive equality, `*` at the end a prefix match. */
export function textMatches(actual: string | null | undefined, term: Term): boolean {
  if (actual == null) return false;
  const a = actual.toLowerCase();
  const v = term.value.toLowerCase();
  return v.endsWith('*') ? a.startsWith(v.slice(0, -1)) : a === v;
}

export function compare(actual: number, op: Comparator, wanted: number, wantedEnd = wanted): boolean {
  switch (op) {
    case ':':
      return actual >= wanted && actual <= wantedEnd;
    case ':<':
      return actual < wanted;
    case ':>':
      return actual > wantedEnd;
    case ':<=':
      return actual <= wantedEnd;
    case ':>=':
      return actual >= wanted;
  }
}

/** A time field: the record's instant compared with the term's value. */
export const timeField =
  <T>(of: (record: T) => string, timeZone: string, now: () => number) =>
  (record: T, term: Term) => {
    const [start, end] = timeRange(term.value, timeZone, now());
    return compare(Date.parse(of(record)), term.op, start, end);
  };
