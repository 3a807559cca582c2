/**
 * Translated product texts, as a shop publishes them with Shopify's Translate & Adapt (stored
 * with the Admin API's `translationsRegister`). A Storefront query in `@inContext(language:)`
 * gets them when that language is published in the buyer's market; otherwise, and for fields
 * without a translation, the shop's default language, as Shopify falls back
 * (https://shopify.dev/changelog/storefront-api-incontext-directive-supports-languages).
 */
export type ProductTexts = { title?: string; description?: string };

/** Language code -> demo product id -> texts. A seed of two French products for the tests and the demo. */
export const DEFAULT_TRANSLATIONS: Record<string, Record<string, ProductTexts>> = {
  FR: {
    bouquet_roses: {
      title: 'Bouquet de roses rouges',
      description: 'Une douzaine de roses rouges à longues tiges, nouées à la main avec de l’eucalyptus et emballées dans du papier kraft.',
    },
    pot_ceramic: { title: 'Pot en céramique' },
  },
};

/** The shop's default language: what every market publishes. */
export const DEFAULT_LANGUAGE = 'EN';

/** The language a query is answered in: the requested one when the market publishes it, else the default. */
export function answeredLanguage(requested: string | null | undefined, published: readonly string[]): string {
  return requested && published.includes(requested) ? requested : DEFAULT_LANGUAGE;
}

/** Shopify's `Language` object of a published language (name in English, endonym). */
const NAMES: Record<string, [string, string]> = { EN: ['English', 'English'], FR: ['French', 'français'], ES: ['Spanish', 'Español'] };
export const languageNode = (code: string) => ({ isoCode: code, name: NAMES[code]?.[0] ?? code, endonymName: NAMES[code]?.[1] ?? code });
