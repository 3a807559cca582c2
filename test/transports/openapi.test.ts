/**
 * The REST binding describes itself: /openapi.json per tenant is a valid OpenAPI 3.1 document
 * (checked by a real validator) that covers every operation of the table, REST route and MCP tool,
 * the profile's REST `schema` points at it, and /docs is a page to read and try it.
 */
import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operations } from '../../src/pipeline/table.js';
import { catalogueRows } from '../../src/protocol/error-catalogue.js';
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
      const headers = described.parameters.map((p: { $ref: string }) => p.$ref.split('/').pop());
      expect(headers).toEqual(expect.arrayContaining(['ProtoAgent', 'RequestId', 'Signature', 'SignatureInput', 'ContentDigest']));
      expect(headers.includes('IdempotencyKey')).toBe(op.idempotency !== undefined);
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

describe('/docs', () => {
  it('serves the API page, fed the tenant document', async () => {
    const page = await get('/docs/');
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/text\/html/);
    expect(page.body).toContain('swagger-ui');
    const fed = await get('/docs/json');
    expect(fed.json()).toEqual((await get('/openapi.json')).json());
  });
});
