/**
 * The real Shopify GraphQL schemas (introspection JSON from @shopify/dev-mcp, see shopify/schemas/SOURCE.md),
 * built once per API and version. The simulator validates every document against them, and the
 * adapter's tests validate every document the adapter sends.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import {
  buildClientSchema,
  parse,
  validate,
  type DocumentNode,
  type GraphQLError,
  type GraphQLSchema,
  type IntrospectionQuery,
} from 'graphql';

export type ShopifyApi = 'admin' | 'storefront';

/** Source folder, also from the compiled copy in dist/ (the .gz files are not compiled). */
function schemaDir(): string {
  const here = dirname(fileURLToPath(import.meta.url));
  return join(here.replace(/([\\/])dist([\\/])simulators/, '$1simulators'), 'schemas');
}

const FILE_PREFIX: Record<ShopifyApi, string> = { admin: 'admin_', storefront: 'storefront-graphql_' };
const cache = new Map<string, GraphQLSchema>();

let versionsOnDisk: string[] | undefined;

/** API versions with both schemas on disk, newest first. */
export function schemaVersions(): string[] {
  return (versionsOnDisk ??= readVersions());
}

/**
 * The version Shopify answers a call to `requested` with: itself when served; a stable version
 * older than the oldest one served (retired) falls forward to that oldest one, as Shopify does
 * ("a request for an inaccessible version is served using the oldest accessible stable
 * version", https://shopify.dev/docs/api/usage/versioning); anything else is not served (404).
 */
export function servedVersion(requested: string): string | undefined {
  const served = schemaVersions();
  if (served.includes(requested)) return requested;
  const oldest = served.at(-1);
  return oldest && /^\d{4}-(01|04|07|10)$/.test(requested) && requested < oldest ? oldest : undefined;
}

function readVersions(): string[] {
  const files = readdirSync(schemaDir());
  const versionsOf = (api: ShopifyApi) =>
    files
      .filter((f) => f.startsWith(FILE_PREFIX[api]) && f.endsWith('.json.gz'))
      .map((f) => f.slice(FILE_PREFIX[api].length, -'.json.gz'.length));
  const storefront = new Set(versionsOf('storefront'));
  return versionsOf('admin')
    .filter((v) => storefront.has(v))
    .sort()
    .reverse();
}

/** The schema of one API version; undefined when this version is not on disk. */
export function shopifySchema(api: ShopifyApi, version: string): GraphQLSchema | undefined {
  const key = `${api}@${version}`;
  const cached = cache.get(key);
  if (cached) return cached;
  if (!/^(\d{4}-\d{2}|unstable)$/.test(version)) return undefined;
  let json: { data?: IntrospectionQuery } & Partial<IntrospectionQuery>;
  try {
    json = JSON.parse(gunzipSync(readFileSync(join(schemaDir(), `${FILE_PREFIX[api]}${version}.json.gz`))).toString('utf8')) as typeof json;
  } catch {
    return undefined;
  }
  const schema = buildClientSchema(json.data ?? (json as IntrospectionQuery));
  cache.set(key, schema);
  return schema;
}

/** A document's text read against a schema: its syntax error, or the document and its validation errors. */
export type CheckedDocument = { syntaxError: GraphQLError } | { document: DocumentNode; errors: readonly GraphQLError[] };

/**
 * Checked once per schema and text, as GraphQL servers cache them: a client sends the same few
 * documents (with other variables) over and over, and parsing and validating them again was most
 * of the simulator's time per call. Bounded, for a client that writes its documents anew.
 */
const checked = new WeakMap<GraphQLSchema, Map<string, CheckedDocument>>();
const MAX_CHECKED = 500;

export function checkDocument(schema: GraphQLSchema, source: string): CheckedDocument {
  let bySource = checked.get(schema);
  if (!bySource) checked.set(schema, (bySource = new Map<string, CheckedDocument>()));
  let result = bySource.get(source);
  if (!result) {
    try {
      const document = parse(source);
      result = { document, errors: validate(schema, document) };
    } catch (error) {
      result = { syntaxError: error as GraphQLError };
    }
    if (bySource.size >= MAX_CHECKED) bySource.clear();
    bySource.set(source, result);
  }
  return result;
}

/** Parse and validation errors of `source` against the schema (empty when it validates). */
export function validateDocument(schema: GraphQLSchema, source: string): readonly GraphQLError[] {
  const result = checkDocument(schema, source);
  return 'syntaxError' in result ? [result.syntaxError] : result.errors;
}
