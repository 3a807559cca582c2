import { describe, expect, it } from 'vitest';
import { DOCUMENTS } from '../../../adapters/shopify/documents.js';
import { DEFAULT_API_VERSION } from '../../../adapters/shopify/settings.js';
import { shopifySchema, validateDocument } from '../../../simulators/shopify/schemas.js';

describe('Shopify adapter documents', () => {
  for (const api of ['storefront', 'admin'] as const) {
    const schema = shopifySchema(api, DEFAULT_API_VERSION)!;
    for (const [name, source] of Object.entries(DOCUMENTS[api])) {
      it(`${api} ${name} validates against the ${DEFAULT_API_VERSION} schema`, () => {
        expect(validateDocument(schema, source).map((e) => e.message)).toEqual([]);
      });
    }
  }

  it('are checked against a schema that refuses what Shopify refuses', () => {
    const schema = shopifySchema('storefront', DEFAULT_API_VERSION)!;
    expect(validateDocument(schema, DOCUMENTS.storefront.CART_QUERY.replace('checkoutUrl', 'checkoutURL'))).not.toEqual([]);
  });
});

describe('Shopify adapter documents in use', () => {
  it('each document is sent by the adapter (no query is kept that nothing runs)', async () => {
    const { readdirSync, readFileSync } = await import('node:fs');
    const dir = new URL('../../../adapters/shopify/', import.meta.url);
    const sources = readdirSync(dir)
      .filter((f) => f.endsWith('.ts') && f !== 'documents.ts')
      .map((f) => readFileSync(new URL(f, dir), 'utf8'))
      .join('\n');
    const unused = [...Object.keys(DOCUMENTS.storefront), ...Object.keys(DOCUMENTS.admin)].filter((name) => !sources.includes(`Q.${name}`));
    expect(unused).toEqual([]);
  });
});
