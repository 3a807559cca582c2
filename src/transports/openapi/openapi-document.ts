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

const header = (name: string, required: boolean, description: string, schema: Record<string, unknown> = { type: 'string' }) => ({
  name,
  in: 'header',
  required,
  description,
  schema,
});

const PARAMETERS = {
  ProtoAgent: header('PROTO-Agent', true, 'The caller: `profile="<platform profile URL>"` (RFC 8941 dictionary).'),
  RequestId: header('Request-Id', true, 'Echoed in logs and answers; 1-200 visible ASCII characters.', { type: 'string', maxLength: 200 }),
  IdempotencyKey: header('Idempotency-Key', true, 'Repeats answer the first result byte for byte; another body with the same key is 409.', {
    type: 'string',
    minLength: 1,
    maxLength: 255,
  }),
  Signature: header(
    'Signature',
    false,
    'RFC 9421 HTTP message signature by a key of the caller profile (when the business verifies requests).',
  ),
  SignatureInput: header('Signature-Input', false, 'RFC 9421 covered components and parameters of `Signature`.'),
  ContentDigest: header('Content-Digest', false, 'RFC 9530 digest of the body, covered by the signature.'),
  AcceptLanguage: header('Accept-Language', false, "The buyer's language, for stores that translate."),
  Id: { name: 'id', in: 'path', required: true, description: 'The resource id.', schema: { type: 'string', minLength: 1, maxLength: 200 } },
};
const ref = (name: keyof typeof PARAMETERS) => ({ $ref: `#/components/parameters/${name}` });

const errorResponses = Object.fromEntries(Object.keys(ERRORS).map((status) => [status, { $ref: `#/components/responses/Error${status}` }]));

function operationObject(op: OperationDefinition): Record<string, unknown> {
  const parameters = [
    ref('ProtoAgent'),
    ref('RequestId'),
    ...(op.idempotency ? [ref('IdempotencyKey')] : []),
    ...(op.rest.path.includes('{id}') ? [ref('Id')] : []),
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
    ...(op.input && { requestBody: { required: true, content: { 'application/json': { schema: plain(op.input) } } } }),
    responses,
    // The same operation over the other transports.
    'x-mcp-tool': op.name,
    'x-a2a-action': op.name,
  };
}

const describe = (text: string) => ({ description: text, content: { 'application/json': { schema: { type: 'object' } } } });

export function openApiDocument(tenant: Tenant, operations: readonly OperationDefinition[]): Record<string, unknown> {
  const offered = operations.filter((op) => tenant.capabilities.has(op.capability));
  const paths: Record<string, Record<string, unknown>> = {};
  for (const op of offered) (paths[op.rest.path] ??= {})[op.rest.method.toLowerCase()] = operationObject(op);
  paths[profilePath] = {
    get: {
      operationId: 'discovery',
      summary: 'The business profile',
      tags: ['discovery'],
      responses: { '200': describe('The profile: services, capabilities, payment handlers, keys.') },
    },
  };
  const tools = offered.map((op) => `\`${op.name}\``).join(', ');
  paths['/mcp'] = {
    post: {
      operationId: 'mcp',
      summary: 'MCP (JSON-RPC 2.0, stateless Streamable HTTP)',
      description:
        `tools/list and tools/call with the tools ${tools}. Arguments are {meta, id?, <payload>}; ` +
        '`meta["proto-agent"].profile` (or params._meta) names the caller.',
      tags: ['transports'],
      requestBody: { required: true, content: { 'application/json': { schema: { type: 'object' } } } },
      responses: { '200': describe('The JSON-RPC response.') },
    },
  };
  if (tenant.config.a2a === true) {
    paths[agentCardPath] = {
      get: {
        operationId: 'a2a_agent_card',
        summary: 'The A2A agent card',
        tags: ['transports'],
        responses: { '200': describe('The agent card.') },
      },
    };
    paths['/a2a'] = {
      post: {
        operationId: 'a2a',
        summary: 'A2A (JSON-RPC message/send, message/stream)',
        description: `A DataPart {"action": <name>, …} with the actions ${tools}; answers carry the resource under a2a.proto.<capability>.`,
        tags: ['transports'],
        parameters: [ref('ProtoAgent')],
        requestBody: { required: true, content: { 'application/json': { schema: { type: 'object' } } } },
        responses: { '200': describe('The JSON-RPC response: an A2A Message.') },
      },
    };
  }
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
    },
    servers: [{ url: tenant.baseUrl }],
    tags: [...new Set(offered.map((op) => op.capability))].map((name) => ({ name })),
    paths,
    components: {
      parameters: PARAMETERS,
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
