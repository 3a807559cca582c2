/**
 * A webhook destination as an operator may see it (console, `npm run outbox`): without
 * credentials, query or fragment, where platforms put tokens.
 */
export function destinationText(stored: string): string {
  try {
    const url = new URL(stored);
    [url.username, url.password, url.search, url.hash] = ['', '', '', ''];
    return url.href;
  } catch {
    return JSON.stringify(stored.split(/[?#]/)[0]!.slice(0, 200));
  }
}
