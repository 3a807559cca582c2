import { describe, expect, it } from 'vitest';
import { preferredLanguage } from '../../src/protocol/accept-language.js';

describe('the buyer language from Accept-Language', () => {
  it('takes the highest weight, the first on a tie; skips *, q=0 and malformed entries', () => {
    expect(preferredLanguage('fr-CA,fr;q=0.9,en;q=0.8')).toBe('fr-CA');
    expect(preferredLanguage('en;q=0.5, de;q=0.7, *;q=1')).toBe('de');
    expect(preferredLanguage('es, pt-BR')).toBe('es');
    expect(preferredLanguage('fr;q=0, it;q=0.1')).toBe('it');
    expect(preferredLanguage('fr;q=2, ja;q=abc, <script>, ko;q=0.3')).toBe('ko');
    expect(preferredLanguage(['nl;q=0.2', 'sv'])).toBe('sv');
  });

  it('is absent when nothing usable is sent', () => {
    for (const header of [undefined, '', '*', 'x'.repeat(2000), 'fr;q=0', ';;;']) expect(preferredLanguage(header)).toBeUndefined();
  });
});
