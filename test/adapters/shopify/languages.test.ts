import type { GraphQLEnumType } from 'graphql';
import { describe, expect, it } from 'vitest';
import { LANGUAGE_CODES, shopifyLanguage } from '../../../adapters/shopify/languages.js';
import { DEFAULT_API_VERSION } from '../../../adapters/shopify/settings.js';
import { shopifySchema } from '../../../simulators/shopify/schemas.js';

describe("Shopify's LanguageCode for a buyer language", () => {
  it('is every value of the schema enum, no more', () => {
    const type = shopifySchema('storefront', DEFAULT_API_VERSION)!.getType('LanguageCode') as GraphQLEnumType;
    expect([...LANGUAGE_CODES].sort()).toEqual(
      type
        .getValues()
        .map((v) => v.name)
        .sort(),
    );
  });

  it('keeps a region Shopify has, drops one it has not, and knows no code for an unknown language', () => {
    expect(['fr', 'fr-CA', 'pt-BR', 'pt-PT', 'pt', 'zh-TW', 'zh-Hant-TW', 'en-GB', 'fil'].map(shopifyLanguage)).toEqual([
      'FR',
      'FR',
      'PT_BR',
      'PT_PT',
      'PT',
      'ZH_TW',
      'ZH_TW',
      'EN',
      'FIL',
    ]);
    expect(shopifyLanguage('tlh')).toBeUndefined();
    expect(shopifyLanguage(undefined)).toBeUndefined();
  });
});
