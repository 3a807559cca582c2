import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { schemaUrlBindsTo } from '../../src/protocol/authority.js';
import { testGateway, type TestGateway } from '../helpers/gateway.js';

let gw: TestGateway;
beforeAll(async () => {
  gw = await testGateway({ tenant: { a2a: true } }); // every transport listed, a2a included
});
afterAll(() => gw.close());

describe('GET /.well-known/proto', () => {
  it('publishes the business profile without any caller headers', async () => {
    const res = await gw.app.inject({ method: 'GET', url: '/.well-known/proto' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    const profile = res.json();
    expect(profile.proto.version).toBe('2026-04-08');
    const [rest, mcp] = profile.proto.services['dev.proto.shopping'];
    expect(rest).toMatchObject({ transport: 'rest', version: '2026-04-08', endpoint: 'https://shop.example' });
    expect(mcp).toMatchObject({ transport: 'mcp', endpoint: 'https://shop.example/mcp' });
    expect(profile.proto.capabilities['dev.proto.shopping.cart'][0]).toMatchObject({ version: '2026-04-08' });
    expect(profile.proto.capabilities['dev.proto.shopping.discount'][0].extends).toEqual([
      'dev.proto.shopping.cart',
      'dev.proto.shopping.checkout',
    ]);
    expect(profile.proto.payment_handlers['dev.proto.payments.sandbox'][0]).toMatchObject({
      id: 'sandbox',
      available_instruments: [{ type: 'card' }],
    });
    // A profile served from a supported_versions URI must be a leaf: this profile never lists itself.
    expect(profile.proto).not.toHaveProperty('supported_versions');
    expect(Array.isArray(profile.keys)).toBe(true);
    expect(profile.signing_keys).toEqual(profile.keys);
  });

  it('lists only the other versions a tenant publishes in supported_versions, never its own', async () => {
    const older = 'https://shop.example/.well-known/proto/2026-01-11';
    const versioned = await testGateway({
      tenant: { supported_versions: { '2026-01-11': older, '2026-04-08': 'https://shop.example/.well-known/proto' } },
    });
    try {
      const profile = (await versioned.app.inject({ method: 'GET', url: '/.well-known/proto' })).json();
      expect(profile.proto.supported_versions).toEqual({ '2026-01-11': older });
    } finally {
      await versioned.close();
    }
  });

  it('binds every schema URL to its entity (authority rule)', async () => {
    const profile = (await gw.app.inject({ method: 'GET', url: '/.well-known/proto' })).json();
    for (const [name, entries] of Object.entries<Array<{ schema: string }>>(profile.proto.capabilities)) {
      for (const entry of entries) expect(schemaUrlBindsTo(name, entry.schema), name).toBe(true);
    }
    for (const [name, entries] of Object.entries<Array<{ schema?: string; transport: string }>>(profile.proto.services)) {
      // `schema` is required for rest, mcp and embedded; a2a (its endpoint is the agent card) may omit it.
      for (const entry of entries) {
        if (entry.schema === undefined && entry.transport === 'a2a') continue;
        expect(schemaUrlBindsTo(name, entry.schema!), name).toBe(true);
      }
    }
  });

  it('is cacheable and answers 304 to a matching If-None-Match', async () => {
    const first = await gw.app.inject({ method: 'GET', url: '/.well-known/proto' });
    expect(first.headers['cache-control']).toMatch(/max-age=\d+/);
    const etag = first.headers.etag as string;
    expect(etag).toMatch(/^".+"$/);
    const second = await gw.app.inject({ method: 'GET', url: '/.well-known/proto', headers: { 'if-none-match': etag } });
    expect(second.statusCode).toBe(304);
    expect(second.body).toBe('');
  });
});
