/**
 * Country of a destination as ISO 3166-1 alpha-2, which adapters expect. Platforms send alpha-2
 * as recommended, but alpha-3 codes and English names are tolerated (spec part 1 §2.8).
 */
import countries from 'i18n-iso-countries';

/** "us", "USA", "United States" -> "US"; undefined when it names no country. */
export function toAlpha2(country: string): string | undefined {
  const text = country.trim();
  if (/^[A-Za-z]{2}$/.test(text)) return countries.isValid(text.toUpperCase()) ? text.toUpperCase() : undefined;
  if (/^[A-Za-z]{3}$/.test(text)) {
    const code = countries.alpha3ToAlpha2(text.toUpperCase());
    if (code) return code;
  }
  return countries.getAlpha2Code(text, 'en');
}

/** Subdivision code without the country prefix, as adapters expect: "us-il" -> "IL". */
export function regionCode(region: string, alpha2?: string): string {
  const code = region.trim().toUpperCase();
  return alpha2 && code.startsWith(`${alpha2}-`) ? code.slice(alpha2.length + 1) : code;
}
