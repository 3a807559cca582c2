/**
 * What a REST mapping sees, as docs/adapters/rest.md states it (issue 45 item 13), checked against
 * a store that echoes what it got: the `api_key` prefix is sent exactly as written (its space
 * included only when written), `$headers` has lower-case names, and for a `for_each` step
 * `$answers.<step>` is an array of `{status, headers, body, item}` in the order of the elements
 * (`$steps.<step>` the bodies alone).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRestAdapter } from '../../../adapters/rest/index.js';
import { RestSettings } from '../../../adapters/rest/settings.js';
import { compile } from '../../../schemas/validator.js';

let server: Server;
let origin: string;
beforeAll(async () => {
  server = createServer((req, res) => {
    res.setHeader('Content-Type', 'application/json');
    res.setHeader('X-Total-Count', '7');
    res.end(JSON.stringify({ url: req.url, authorization: req.headers['x-api-key'] ?? null }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));

async function echoAdapter(prefix: string, lookup: Record<string, unknown>) {
  const settings = compile<RestSettings>(RestSettings)({
    base_url: origin,
    storefront_url: origin,
    currencies: ['USD'],
    money: 'minor',
    auth: { type: 'api_key', header: 'X-Api-Key', key: 'key', prefix },
    operations: { lookup },
  });
  if (!settings.ok) throw new Error(settings.message);
  return createRestAdapter(settings.value, { credentials: { key: 'k123' }, where: 'echo.yaml', tenantId: 'echo', now: Date.now });
}

describe('what a REST mapping sees', () => {
  it('sends the api_key prefix exactly as written: its space only when the prefix has one', async () => {
    const single = { method: 'GET', path: '/one', response: '[authorization]' };
    const bare = await echoAdapter('Token', single);
    expect(await bare.lookup(['x'])).toEqual(['Tokenk123']);
    const spaced = await echoAdapter('Token ', single);
    expect(await spaced.lookup(['x'])).toEqual(['Token k123']);
    await Promise.all([bare.close(), spaced.close()]);
  });

  it('gives $headers with lower-case names', async () => {
    const adapter = await echoAdapter('', {
      method: 'GET',
      path: '/one',
      response: '[$headers."x-total-count", $exists($headers."X-Total-Count"), $headers."content-type"]',
    });
    expect(await adapter.lookup(['x'])).toEqual(['7', false, 'application/json']);
    await adapter.close();
  });

  it('gives a for_each step as an array of {status, headers, body, item} in element order, $steps.<step> the bodies', async () => {
    const adapter = await echoAdapter('', {
      steps: [{ name: 'each', method: 'GET', path: '/items/{item}', for_each: 'ids' }],
      response: '{"answers": $answers.each, "steps": $steps.each}',
    });
    const [seen] = (await adapter.lookup(['a', 'b'])) as unknown as Array<{ answers: unknown[]; steps: unknown[] }>;
    expect(seen!.answers).toEqual([
      {
        status: 200,
        headers: expect.objectContaining({ 'x-total-count': '7' }),
        body: { url: '/items/a', authorization: 'k123' },
        item: 'a',
      },
      {
        status: 200,
        headers: expect.objectContaining({ 'x-total-count': '7' }),
        body: { url: '/items/b', authorization: 'k123' },
        item: 'b',
      },
    ]);
    expect(seen!.steps).toEqual([
      { url: '/items/a', authorization: 'k123' },
      { url: '/items/b', authorization: 'k123' },
    ]);
    await adapter.close();
  });
});
