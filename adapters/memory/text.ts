/** Text matching a shopper would accept: case- and accent-insensitive words, plural-tolerant prefixes. */

/** "Crème BRÛLÉE" -> "creme brulee". */
function fold(text: string): string {
  return text.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase();
}

export function words(text: string): string[] {
  return fold(text).match(/[\p{L}\p{N}]+/gu) ?? [];
}

/** Forms of a query word that may start a matching word: "orchids" also as "orchid". */
export function queryForms(word: string): string[] {
  const forms = [word];
  if (word.length > 3 && word.endsWith('es')) forms.push(word.slice(0, -2));
  if (word.length > 3 && word.endsWith('s')) forms.push(word.slice(0, -1));
  return forms;
}

/** True when some word of `field` starts with a form of the query word. */
export function matchesWord(fieldWords: readonly string[], forms: readonly string[]): boolean {
  return fieldWords.some((w) => forms.some((f) => w.startsWith(f)));
}
