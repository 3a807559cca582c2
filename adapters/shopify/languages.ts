/**
 * The buyer's language (a BCP 47 tag from the request) as the Storefront API's `LanguageCode`
 * for `@inContext(language:)`: the tag with its region when Shopify has that variant (`pt-BR` →
 * PT_BR, `zh-TW` → ZH_TW), else its language (`fr-CA` → FR); a tag Shopify has no code for gives
 * undefined (the tenant's default language). Shopify itself falls back to the market's default
 * when the language is not published in the buyer's market
 * (https://shopify.dev/changelog/storefront-api-incontext-directive-supports-languages).
 */

/** Every value of the 2026-10 `LanguageCode` enum (test/adapters/shopify/languages.test.ts compares with the schema). */
export const LANGUAGE_CODES: ReadonlySet<string> = new Set(
  (
    'AF AK AM AR AS AZ BE BG BM BN BO BR BS CA CE CKB CS CU CY DA DE DZ EE EL EN EO ES ET EU FA FF FI FIL FO FR FY GA GD ' +
    'GL GU GV HA HE HI HR HU HY IA ID IG II IS IT JA JV KA KI KK KL KM KN KO KS KU KW KY LA LB LG LN LO LT LU LV MG MI MK ' +
    'ML MN MO MR MS MT MY NB ND NE NL NN NO OM OR OS PA PL PS PT PT_BR PT_PT QU RM RN RO RU RW SA SC SD SE SG SH SI SK SL ' +
    'SN SO SQ SR SU SV SW TA TE TG TH TI TK TO TR TT UG UK UR UZ VI VO WO XH YI YO ZH ZH_CN ZH_TW ZU'
  ).split(' '),
);

export function shopifyLanguage(tag: string | undefined): string | undefined {
  if (!tag) return undefined;
  const [language, ...rest] = tag.toUpperCase().split('-');
  const region = rest.find((s) => /^[A-Z]{2}$/.test(s));
  if (region && LANGUAGE_CODES.has(`${language}_${region}`)) return `${language}_${region}`;
  return language && LANGUAGE_CODES.has(language) ? language : undefined;
}
