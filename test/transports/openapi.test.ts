/**
 * The REST binding describes itself: /openapi.json per tenant is a valid OpenAPI 3.1 document
 * (checked by a real validator) that passes Redocly's recommended rules, covers every operation of
 * the table, REST route and MCP tool, carries examples that work as /docs sends them, the profile's
 * REST `schema` points at it, and /docs is a page to read and try it.
 */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createConfig, lintFromString } from '@redocly/openapi-core';
import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveFolder } from '../../scripts/agent-server.js';
import { operations } from '../../src/pipeline/table.js';
import { catalogueRows } from '../../src/protocol/error-catalogue.js';
import { demoGateway } from '../helpers/demo-gateway.js';
import { testGateway, type TestGateway } from '../helpers/gateway.js';

let gw: TestGateway;
beforeAll(async () => {
  gw = await testGateway({ tenant: { a2a: true } });
});
afterAll(() => gw.close());

const get = (url: string) => gw.app.inject({ method: 'GET', url });

describe('/openapi.json', () => {
  it('is a valid OpenAPI 3.1 document on the tenant base URL', async () => {
    const res = await get('/openapi.json');
    expect(res.statusCode).toBe(200);
    const document = res.json();
    expect(document.openapi).toBe('3.1.0');
    expect(document.servers).toEqual([{ url: 'https://shop.example' }]);
    const result = await new Validator().validate(document);
    expect(result.errors).toBeUndefined();
    expect(result.valid).toBe(true);
  });

  it('an invalid document fails the same validator (the check can fail)', async () => {
    const document = (await get('/openapi.json')).json();
    document.paths['/catalog/search'].post.responses = 'none';
    expect((await new Validator().validate(document)).valid).toBe(false);
  });

  it('covers every operation of the table: its route, tool, request body, headers and errors', async () => {
    const document = (await get('/openapi.json')).json();
    const tools: string = document.paths['/mcp'].post.description;
    for (const op of operations) {
      const described = document.paths[op.rest.path]?.[op.rest.method.toLowerCase()];
      expect(described, `${op.rest.method} ${op.rest.path}`).toBeDefined();
      expect(described).toMatchObject({ operationId: op.name, 'x-mcp-tool': op.name, 'x-a2a-action': op.name, tags: [op.capability] });
      expect(tools).toContain(`\`${op.name}\``);
      expect(document.paths['/a2a'].post.description).toContain(`\`${op.name}\``);
      const headers = described.parameters.map((p: { $ref?: string; name?: string }) => p.$ref?.split('/').pop() ?? p.name);
      expect(headers).toEqual(expect.arrayContaining(['ProtoAgent', 'RequestId', 'Signature', 'SignatureInput', 'ContentDigest']));
      expect(headers.includes('Idempotency-Key')).toBe(op.idempotency !== undefined);
      expect(described.requestBody !== undefined).toBe(op.input !== undefined);
      expect(Object.keys(described.responses)).toEqual(
        expect.arrayContaining([String(op.rest.status), '400', '401', '404', '409', '429', '503']),
      );
    }
    expect(document.components.responses.Error429.content['application/json'].schema).toEqual({
      $ref: '#/components/schemas/TransportError',
    });
    expect(document.components.schemas.TransportError.required).toEqual(['code', 'content']);
  });

  it('documents every transport error code of the catalogue under its status, and none a single transport keeps to itself', async () => {
    const { responses } = (await get('/openapi.json')).json().components;
    for (const [code, row] of catalogueRows()) {
      if (row.status === undefined) continue;
      const description: string | undefined = responses[`Error${row.status}`]?.description;
      if (row.only) expect(description ?? '', code).not.toMatch(new RegExp(`\\b${code}\\b`));
      else expect(description, `${code} under ${row.status}`).toMatch(new RegExp(`\\b${code}\\b`));
    }
  });

  it('documents the identity failures’ protocol error response beside {code, content} under 401 and 403', async () => {
    const { responses, schemas } = (await get('/openapi.json')).json().components;
    const either = { oneOf: [{ $ref: '#/components/schemas/TransportError' }, { $ref: '#/components/schemas/ErrorResponse' }] };
    for (const status of [401, 403]) expect(responses[`Error${status}`].content['application/json'].schema, String(status)).toEqual(either);
    expect(schemas.ErrorResponse.required).toEqual(['proto', 'messages']);
    expect(responses.Error401.description).toMatch(/identity_required.*protocol error response/);
  });

  it('documents exactly the operations a tenant offers', async () => {
    const catalogOnly = await testGateway({ tenant: { capabilities: { 'dev.proto.shopping.catalog.search': {} } } });
    try {
      const document = (await catalogOnly.app.inject({ method: 'GET', url: '/openapi.json' })).json();
      expect(Object.keys(document.paths).sort()).toEqual(['/.well-known/proto', '/catalog/search', '/mcp']);
    } finally {
      await catalogOnly.close();
    }
  });

  it("is linked from the profile's REST service, whose schema stays on the protocol's host (authority binding)", async () => {
    const profile = (await get('/.well-known/proto')).json();
    const rest = profile.proto.services['dev.proto.shopping'].find((s: { transport: string }) => s.transport === 'rest');
    expect(rest.config).toEqual({ openapi: 'https://shop.example/openapi.json' });
    expect(rest.schema).toBe('https://proto.dev/services/shopping/rest.openapi.json');
  });
});

/** Redocly's recommended ruleset, built in: nothing is fetched. */
async function lint(document: unknown) {
  const config = await createConfig({ extends: ['recommended'] });
  const problems = await lintFromString({ source: JSON.stringify(document), absoluteRef: 'openapi.json', config });
  return problems.map((p) => `${p.ruleId} ${p.location[0]?.pointer}: ${p.message}`);
}

describe("/openapi.json under Redocly's recommended rules", () => {
  it('has no error or warning (license, tag descriptions, 4XX everywhere, examples valid, required members defined)', async () => {
    expect(await lint((await get('/openapi.json')).json())).toEqual([]);
  });

  it('the same rules catch a missing license, an invalid example and an undefined required member', async () => {
    const document = (await get('/openapi.json')).json();
    delete document.info.license;
    document.paths['/catalog/search'].post.requestBody.content['application/json'].example = { query: 5 };
    document.paths['/catalog/search'].post.requestBody.content['application/json'].schema.required = ['nowhere'];
    const problems = await lint(document);
    expect(problems).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^info-license /),
        expect.stringMatching(/^no-invalid-media-type-examples /),
        expect.stringMatching(/^no-required-schema-properties-undefined .*'nowhere'/),
      ]),
    );
  });
});

describe('the examples /docs prefills', () => {
  let demo: Awaited<ReturnType<typeof demoGateway>>;
  let agent: Server;
  let document: any;
  beforeAll(async () => {
    demo = await demoGateway();
    // The README's example agent, on a free port instead of its 9000.
    agent = await serveFolder('docs/examples/agent', 0);
    document = (await demo.app.inject({ method: 'GET', url: '/openapi.json' })).json();
  });
  afterAll(async () => {
    await demo.close();
    await new Promise((done) => agent.close(done));
  });

  /** The request "Try it out" sends for an operation as prefilled: header and body examples, the path id given. */
  async function tryItOut(operationId: string, id?: string) {
    const [path, method, described] = Object.entries(document.paths as Record<string, Record<string, any>>)
      .flatMap(([p, item]) => Object.entries(item).map(([m, o]) => [p, m, o] as const))
      .find(([, , o]) => o.operationId === operationId)!;
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    for (const parameter of described.parameters) {
      const resolved = parameter.$ref ? document.components.parameters[parameter.$ref.split('/').pop()] : parameter;
      if (resolved.in === 'header' && resolved.example !== undefined) headers[resolved.name.toLowerCase()] = resolved.example;
    }
    headers['proto-agent'] = headers['proto-agent']!.replace(':9000/', `:${(agent.address() as AddressInfo).port}/`);
    const body = described.requestBody?.content['application/json'].example;
    const answer = await demo.app.inject({
      method: method.toUpperCase() as 'GET',
      url: path.replace('{id}', id ?? ''),
      headers,
      ...(body && { payload: body }),
    });
    return { status: answer.statusCode, body: answer.json() };
  }

  it("every header a call requires has an example: the README's example agent, a request id, a key per operation", () => {
    expect(document.components.parameters.ProtoAgent.example).toBe('profile="http://127.0.0.1:9000/.well-known/proto"');
    expect(document.components.parameters.RequestId.example).toEqual(expect.any(String));
    const keys = operations.filter((op) => op.idempotency).map((op) => document.paths[op.rest.path][op.rest.method.toLowerCase()]);
    const examples = keys.map((o) => o.parameters.find((p: { name?: string }) => p.name === 'Idempotency-Key').example);
    expect(new Set(examples).size).toBe(keys.length);
    for (const op of operations.filter((o) => o.input)) {
      expect(
        document.paths[op.rest.path][op.rest.method.toLowerCase()].requestBody.content['application/json'].example,
        op.name,
      ).toBeDefined();
    }
  });

  it('work unedited on the demo store, from search to a completed order (only path ids typed in)', async () => {
    for (const operationId of ['search_catalog', 'lookup_catalog', 'get_product']) {
      expect(await tryItOut(operationId), operationId).toMatchObject({ status: 200, body: { proto: { status: 'success' } } });
    }
    expect((await tryItOut('search_catalog')).body.products[0].title).toBe('Bouquet of Red Roses');

    const cart = await tryItOut('create_cart');
    expect(cart).toMatchObject({ status: 201, body: { proto: { status: 'success' }, discounts: { codes: ['10OFF'] } } });
    for (const operationId of ['get_cart', 'update_cart', 'cancel_cart'])
      expect(await tryItOut(operationId, cart.body.id), operationId).toMatchObject({ status: 200, body: { proto: { status: 'success' } } });

    const created = await tryItOut('create_checkout');
    expect(created).toMatchObject({ status: 201, body: { status: 'incomplete' } });
    expect((await tryItOut('get_checkout', created.body.id)).body.id).toBe(created.body.id);
    const updated = await tryItOut('update_checkout', created.body.id);
    expect(updated).toMatchObject({ status: 200, body: { status: 'ready_for_complete' } });
    const completed = await tryItOut('complete_checkout', created.body.id);
    expect(completed).toMatchObject({ status: 200, body: { status: 'completed', order: { id: expect.any(String) } } });
    // An order is read by whoever proves to be its platform or buyer: unsigned, the documented 401.
    expect((await tryItOut('get_order', completed.body.order.id)).status).toBe(401);
  });
});

describe('/docs', () => {
  it('serves the API page, fed the tenant document', async () => {
    const page = await get('/docs/');
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/text\/html/);
    expect(page.body).toContain('swagger-ui');
    const fed = await get('/docs/json');
    expect(fed.json()).toEqual((await get('/openapi.json')).json());
  });

  it('every part of the page carries a CSP that forbids framing and other origins, nosniff and no referrer', async () => {
    for (const url of ['/docs', '/docs/', '/docs/static/swagger-ui-bundle.js', '/docs/static/swagger-initializer.js', '/docs/json']) {
      const res = await get(url);
      expect(res.statusCode, url).toBeLessThan(400);
      const csp = new Map(
        String(res.headers['content-security-policy'])
          .split(';')
          .map((d) => d.trim().split(/\s+/))
          .map(([name, ...sources]) => [name, sources.join(' ')]),
      );
      expect(csp.get('default-src'), url).toBe("'self'");
      expect(csp.get('script-src'), url).toBe("'self'");
      expect(csp.get('frame-ancestors'), url).toBe("'none'");
      expect(csp.get('base-uri'), url).toBe("'none'");
      expect(csp.get('object-src'), url).toBe("'none'");
      // "Try it out" calls the tenant's base URL (the document's server); nothing else leaves the page's origin.
      expect(csp.get('connect-src'), url).toBe("'self' https://shop.example");
      for (const [name, sources] of csp) if (name !== 'connect-src') expect(sources, `${url} ${name}`).not.toMatch(/https?:|'unsafe-/);
      expect(res.headers['x-content-type-options'], url).toBe('nosniff');
      expect(res.headers['referrer-policy'], url).toBe('no-referrer');
    }
  });
});
