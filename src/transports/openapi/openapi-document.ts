/**
 * The REST binding's OpenAPI 3.1 description, generated from the operation table: one path item
 * per operation (its TypeBox input schema as the request body, its answer schema), the protocol
 * headers, idempotency, signatures, credentials and every transport error. One document per tenant
 * (its base URL, the operations its capabilities offer), built once.
 */
import { Type, type TSchema } from '@sinclair/typebox';
import { GetProductResponse, LookupResponse, SearchResponse, CatalogErrorResponse } from '../../../schemas/catalog.js';
import { CartResponse } from '../../../schemas/cart.js';
import { CheckoutResponse } from '../../../schemas/checkout.js';
import { ErrorResponse, HandoffFailure, ResponseEnvelope, TransportError } from '../../../schemas/common.js';
import { Order, OrderFailure } from '../../../schemas/order.js';
import type { OperationDefinition } from '../../capabilities/operation.js';
import { agentCardPath, profilePath } from '../../protocol/business-profile.js';
import { catalogueRows } from '../../protocol/error-catalogue.js';
import { PROTOCOL_VERSION } from '../../protocol/version.js';
import type { Tenant } from '../../tenancy/tenant.js';
import {
  ID_SOURCES,
  REQUEST_EXAMPLES,
  REQUEST_ID_EXAMPLE,
  idempotencyKeyExample,
  protoAgentExample,
  tagObjects,
} from './document-examples.js';

/** What each operation answers with (HTTP 200/201); an operation not named here answers the envelope and its resource. */
const ANSWERS: Record<string, TSchema> = {
  search_catalog: Type.Union([SearchResponse, CatalogErrorResponse]),
  lookup_catalog: Type.Union([LookupResponse, CatalogErrorResponse]),
  get_product: Type.Union([GetProductResponse, CatalogErrorResponse]),
  create_cart: CartResponse,
  get_cart: CartResponse,
  update_cart: CartResponse,
  cancel_cart: CartResponse,
  create_checkout: CheckoutResponse,
  get_checkout: CheckoutResponse,
  update_checkout: CheckoutResponse,
  complete_checkout: CheckoutResponse,
  cancel_checkout: CheckoutResponse,
  get_order: Type.Union([Order, OrderFailure]),
};
const ANY_ANSWER = Type.Union([Type.Object({ proto: ResponseEnvelope }, { additionalProperties: true }), HandoffFailure]);

/** What each transport error status means on REST (spec part 1 §7, layer 1); its codes come from the error catalogue. */
const STATUS_NOTES: Record<number, string> = {
  400: 'Malformed request.',
  401: 'Authentication missing or failed (API key, bearer token, signature); WWW-Authenticate names the scheme.',
  403: 'The credential does not reach this resource.',
  404: 'Nothing is served here for this caller.',
  409: 'A conflict with an earlier or concurrent request; retry as Retry-After says where it is sent.',
  413: 'The body is larger than the gateway accepts.',
  415: 'The body must be application/json.',
  422: 'The caller profile is not a profile of this protocol (discovery).',
  424: 'The caller profile could not be fetched (discovery).',
  429: 'The caller or the business is past its rate limit; Retry-After says when to retry.',
  500: 'Unexpected error: nothing leaked; the request id finds the log line.',
  503: 'Temporarily unavailable: retry as Retry-After says.',
};

/** The catalogue's rows REST answers with a status (those no single transport keeps to itself). */
const restRows = (status: string) => catalogueRows().filter(([, row]) => row.status === Number(status) && !row.only);

/** Each status with its note and the codes REST answers with it, naming those answered as a protocol error response. */
const ERRORS: Record<string, string> = Object.fromEntries(
  Object.entries(STATUS_NOTES).map(([status, note]) => {
    const rows = restRows(status);
    const envelope = rows.flatMap(([code, row]) => (row.body === 'messages' ? [code] : []));
    const shape = envelope.length > 0 ? ` ${envelope.join(', ')}: a protocol error response (the proto envelope and messages).` : '';
    return [status, `${note} Codes: ${rows.map(([code]) => code).join(', ')}.${shape}`];
  }),
);

/** A status's body: `{code, content}`, or either that or a protocol error response where one of its codes is one. */
const errorBodySchema = (status: string) => {
  const transportError = { $ref: '#/components/schemas/TransportError' };
  const envelope = restRows(status).some(([, row]) => row.body === 'messages');
  return envelope ? { oneOf: [transportError, { $ref: '#/components/schemas/ErrorResponse' }] } : transportError;
};

/** JSON round trip: TypeBox's symbol keys go, plain JSON Schema (2020-12 compatible) stays. */
const plain = (schema: TSchema): Record<string, unknown> => JSON.parse(JSON.stringify(schema)) as Record<string, unknown>;

const header = (
  name: string,
  required: boolean,
  description: string,
  schema: Record<string, unknown> = { type: 'string' },
  example?: string,
) => ({ name, in: 'header', required, description, schema, ...(example !== undefined && { example }) });

/** One per operation: its example differs, since one key on two operations is refused (409). */
const idempotencyKey = (operation: string) =>
  header(
    'Idempotency-Key',
    true,
    'Repeats answer the first result byte for byte; another body, operation or resource with the same key is 409.',
    { type: 'string', minLength: 1, maxLength: 255 },
    idempotencyKeyExample(operation),
  );

/** The path's resource id: random, so no example; the description says which answer carries it. */
const idParameter = (op: OperationDefinition) => ({
  name: 'id',
  in: 'path',
  required: true,
  description: ID_SOURCES[op.capability] ?? 'The resource id.',
  schema: { type: 'string', minLength: 1, maxLength: 200 },
});

const parametersOf = (tenant: Tenant) => ({
  ProtoAgent: header(
    'PROTO-Agent',
    true,
    'The caller: `profile="<platform profile URL>"` (RFC 8941 dictionary).',
    { type: 'string' },
    protoAgentExample(tenant),
  ),
  RequestId: header(
    'Request-Id',
    true,
    'Echoed in logs and answers; 1-200 visible ASCII characters.',
    { type: 'string', maxLength: 200 },
    REQUEST_ID_EXAMPLE,
  ),
  Signature: header(
    'Signature',
    false,
    'RFC 9421 HTTP message signature by a key of the caller profile (when the business verifies requests).',
  ),
  SignatureInput: header('Signature-Input', false, 'RFC 9421 covered components and parameters of `Signature`.'),
  ContentDigest: header('Content-Digest', false, 'RFC 9530 digest of the body, covered by the signature.'),
  AcceptLanguage: header('Accept-Language', false, "The buyer's language, for stores that translate."),
});
const ref = (name: keyof ReturnType<typeof parametersOf>) => ({ $ref: `#/components/parameters/${name}` });

const errorResponses = Object.fromEntries(Object.keys(ERRORS).map((status) => [status, { $ref: `#/components/responses/Error${status}` }]));

function operationObject(op: OperationDefinition): Record<string, unknown> {
  const parameters = [
    ref('ProtoAgent'),
    ref('RequestId'),
    ...(op.idempotency ? [idempotencyKey(op.name)] : []),
    ...(op.rest.path.includes('{id}') ? [idParameter(op)] : []),
    ref('AcceptLanguage'),
    ref('Signature'),
    ref('SignatureInput'),
    ref('ContentDigest'),
  ];
  const answer = { content: { 'application/json': { schema: plain(ANSWERS[op.name] ?? ANY_ANSWER) } } };
  const responses: Record<string, unknown> = {
    [String(op.rest.status)]: { description: 'The resource, with the `proto` envelope.', ...answer },
    ...(op.rest.status !== 200 && {
      '200': { description: 'A business outcome that failed: `proto.status` "error", messages and a page to continue on.', ...answer },
    }),
    ...errorResponses,
  };
  return {
    operationId: op.name,
    summary: op.title,
    description: op.description,
    tags: [op.capability],
    parameters,
    ...(op.input && {
      requestBody: {
        required: true,
        content: {
          'application/json': { schema: plain(op.input), ...(REQUEST_EXAMPLES[op.name] && { example: REQUEST_EXAMPLES[op.name] }) },
        },
      },
    }),
    responses,
    // The same operation over the other transports.
    'x-mcp-tool': op.name,
    'x-a2a-action': op.name,
  };
}

const describe = (text: string) => ({ description: text, content: { 'application/json': { schema: { type: 'object' } } } });

/** A JSON-RPC transport's refusals: an error object, with the HTTP status of the matching transport error. */
const JSON_RPC_ERRORS = {
  '4XX': {
    description:
      'A refused call as a JSON-RPC error ({jsonrpc, id, error: {code, message, data}}) with the HTTP status of the transport ' +
      'error (400 malformed, 401 credentials, 413 too large, 415 not JSON, 424 caller profile unreachable, 429 with Retry-After).',
    content: {
      'application/json': {
        schema: {
          type: 'object',
          required: ['jsonrpc', 'error'],
          properties: {
            jsonrpc: { const: '2.0' },
            id: { type: ['string', 'integer', 'null'] },
            error: {
              type: 'object',
              required: ['code', 'message'],
              properties: { code: { type: 'integer' }, message: { type: 'string' }, data: {} },
            },
          },
        },
      },
    },
  },
};
const UNKNOWN_TENANT = { '404': { $ref: '#/components/responses/Error404' } };

/** Discovery, MCP and, when the tenant serves it, A2A: the paths beside the operations. */
function otherPaths(tenant: Tenant, offered: readonly OperationDefinition[]): Record<string, Record<string, unknown>> {
  const tools = offered.map((op) => `\`${op.name}\``).join(', ');
  const paths: Record<string, Record<string, unknown>> = {};
  paths[profilePath] = {
    get: {
      operationId: 'discovery',
      summary: 'The business profile',
      tags: ['discovery'],
      responses: {
        '200': describe('The profile: services, capabilities, payment handlers, keys.'),
        '304': { description: 'Not modified: If-None-Match names the current ETag.' },
        ...UNKNOWN_TENANT,
      },
    },
  };
  paths['/mcp'] = {
    post: {
      operationId: 'mcp',
      summary: 'MCP (JSON-RPC 2.0, stateless Streamable HTTP)',
      description:
        `tools/list and tools/call with the tools ${tools}. Arguments are {meta, id?, <payload>}; ` +
        '`meta["proto-agent"].profile` (or params._meta) names the caller.',
      tags: ['transports'],
      requestBody: { required: true, content: { 'application/json': { schema: { type: 'object' } } } },
      responses: { '200': describe('The JSON-RPC response.'), ...JSON_RPC_ERRORS },
    },
  };
  if (tenant.config.a2a !== true) return paths;
  paths[agentCardPath] = {
    get: {
      operationId: 'a2a_agent_card',
      summary: 'The A2A agent card',
      tags: ['transports'],
      responses: { '200': describe('The agent card.'), ...UNKNOWN_TENANT },
    },
  };
  paths['/a2a'] = {
    post: {
      operationId: 'a2a',
      summary: 'A2A 1.0 (JSON-RPC SendMessage, SendStreamingMessage; 0.3 message/send without A2A-Version)',
      description: `A DataPart {"action": <name>, …} with the actions ${tools}; answers carry the resource under a2a.proto.<capability>.`,
      tags: ['transports'],
      parameters: [ref('ProtoAgent')],
      requestBody: { required: true, content: { 'application/json': { schema: { type: 'object' } } } },
      responses: { '200': describe('The JSON-RPC response: an A2A Message.'), ...JSON_RPC_ERRORS },
    },
  };
  return paths;
}

export function openApiDocument(tenant: Tenant, operations: readonly OperationDefinition[]): Record<string, unknown> {
  const offered = operations.filter((op) => tenant.capabilities.has(op.capability));
  const paths: Record<string, Record<string, unknown>> = {};
  for (const op of offered) (paths[op.rest.path] ??= {})[op.rest.method.toLowerCase()] = operationObject(op);
  Object.assign(paths, otherPaths(tenant, offered));
  return {
    openapi: '3.1.0',
    info: {
      title: `${tenant.name}: commerce protocol REST API`,
      version: PROTOCOL_VERSION,
      description:
        `The ${PROTOCOL_VERSION} commerce protocol over REST, as this business serves it. Every operation names the caller ` +
        'with PROTO-Agent; state-changing ones take an Idempotency-Key. Business outcomes that fail are HTTP 200 with ' +
        '`proto.status` "error"; transport errors are `{code, content}` with the HTTP status, the identity failures ' +
        '(`identity_required`, `insufficient_scope`) a protocol error response beside the Bearer challenge.',
      // The protocol's REST binding, as upstream publishes it.
      license: { name: 'Apache 2.0', identifier: 'Apache-2.0' },
    },
    servers: [{ url: tenant.baseUrl }],
    tags: tagObjects([...new Set(offered.map((op) => op.capability))]),
    paths,
    components: {
      parameters: parametersOf(tenant),
      schemas: { TransportError: plain(TransportError), ErrorResponse: plain(ErrorResponse) },
      responses: Object.fromEntries(
        Object.entries(ERRORS).map(([status, description]) => [
          `Error${status}`,
          {
            description,
            ...(['409', '429', '503'].includes(status) && { headers: { 'Retry-After': { schema: { type: 'integer' } } } }),
            content: { 'application/json': { schema: errorBodySchema(status) } },
          },
        ]),
      ),
      securitySchemes: {
        apiKey: { type: 'apiKey', in: 'header', name: 'X-API-Key', description: 'A platform API key the business issued.' },
        bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: 'An OAuth access token (platform or buyer).' },
      },
    },
    // Anonymous calls are allowed where the business allows them; signatures are the Signature headers above.
    security: [{}, { apiKey: [] }, { bearer: [] }],
  };
}
