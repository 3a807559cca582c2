/**
 * The real Shopify GraphQL schemas (introspection JSON from @shopify/dev-mcp, see schemas/SOURCE.md),
 * built once per API and version. The simulator validates every document against them, and the
 * adapter's tests validate every document the adapter sends.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { buildClientSchema, parse, validate, type GraphQLError, type GraphQLSchema, type IntrospectionQuery } from 'graphql';

export type ShopifyApi = 'admin' | 'storefront';

/** Source folder, also from the compiled copy in dist/ (the .gz files are not compiled). */
function schemaDir(): string {
  const here = dirname(fileURLToPath(import.meta.url));
  return join(here.replace(/([\\/])dist([\\/])simulators/, '$1simulators'), 'schemas');
}

const FILE_PREFIX: Record<ShopifyApi, string> = { admin: 'admin_', storefront: 'storefront-graphql_' };
const cache = new Map<string, GraphQLSchema>();

/** API versions with both schemas on disk, newest first. */
export function schemaVersions(): string[] {
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

/** Parse and validation errors of `source` against the schema (empty when it validates). */
export function validateDocument(schema: GraphQLSchema, source: string): readonly GraphQLError[] {
  try {
    return validate(schema, parse(source));
  } catch (error) {
    return [error as GraphQLError];
  }
}
