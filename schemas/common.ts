/**
 * Shapes shared by every capability (spec part 1 §2.2-2.4). TypeBox builds the JSON Schema
 * and the TypeScript type from one declaration, so the two can never drift apart.
 */
import { Type, type Static, type TSchema } from '@sinclair/typebox';

/** A string enum as plain JSON Schema `enum`, which gives clearer validation messages than anyOf. */
export const StringEnum = <const T extends readonly string[]>(values: T, options: Record<string, unknown> = {}) =>
  Type.Unsafe<T[number]>({ type: 'string', enum: [...values], ...options });

/** A schema with its description: the one source of the generated references (docs/adapters/rest-tenant-reference.md). */
export const doc = <T extends TSchema>(schema: T, description: string): T => ({ ...schema, description });

export const DateString = Type.String({ pattern: '^(\\d{4}-\\d{2}-\\d{2}|draft)$' });

/** Integer minor units (spec: money is never a decimal). */
export const Amount = Type.Integer({ minimum: -1e15, maximum: 1e15 });

export const CurrencyCode = Type.String({ pattern: '^[A-Z]{3}$' });

export const Message = Type.Object({
  type: StringEnum(['error', 'warning', 'info']),
  code: Type.String(),
  severity: Type.Optional(StringEnum(['recoverable', 'requires_buyer_input', 'requires_buyer_review', 'unrecoverable'])),
  content: Type.String(),
  path: Type.Optional(Type.String()),
});
export type Message = Static<typeof Message>;

/** An itemized part of a total entry (upstream 2026-04-08 totals.json `lines`): they sum to the entry's amount. */
export const TotalLine = Type.Object({ display_text: Type.String(), amount: Amount });
export type TotalLine = Static<typeof TotalLine>;

export const Total = Type.Object({
  type: Type.String(),
  display_text: Type.Optional(Type.String()),
  amount: Amount,
  lines: Type.Optional(Type.Array(TotalLine)),
});
export type Total = Static<typeof Total>;

export const Link = Type.Object({
  type: Type.String(),
  url: Type.String({ format: 'uri' }),
  title: Type.Optional(Type.String()),
});
export type Link = Static<typeof Link>;

const VersionEntries = Type.Record(Type.String(), Type.Array(Type.Object({ version: DateString }, { additionalProperties: true })));

/** The `proto` member of every response. */
export const ResponseEnvelope = Type.Object({
  version: DateString,
  status: Type.Optional(StringEnum(['success', 'error'])),
  services: Type.Optional(VersionEntries),
  capabilities: Type.Optional(VersionEntries),
  payment_handlers: Type.Optional(VersionEntries),
});
export type ResponseEnvelope = Static<typeof ResponseEnvelope>;

/**
 * A protocol error response (upstream error_response.json): no resource, the envelope with status
 * "error", why in `messages`, and where the buyer may go on.
 */
export const ErrorResponse = Type.Object({
  proto: ResponseEnvelope,
  messages: Type.Array(Message, { minItems: 1 }),
  continue_url: Type.Optional(Type.String({ format: 'uri' })),
});
export type ErrorResponse = Static<typeof ErrorResponse>;

/**
 * A cart or checkout operation that failed as a business outcome: no resource, messages and a handoff URL.
 * @alias ErrorResponse, the name its schema has upstream
 */
export const HandoffFailure = ErrorResponse;
export type HandoffFailure = ErrorResponse;

/** Buyer location and preferences (spec §2.4); unknown members are tolerated. */
export const Context = Type.Object(
  {
    address_country: Type.Optional(Type.String({ maxLength: 64 })),
    address_region: Type.Optional(Type.String({ maxLength: 64 })),
    postal_code: Type.Optional(Type.String({ maxLength: 32 })),
    currency: Type.Optional(CurrencyCode),
    eligibility: Type.Optional(Type.Array(Type.String({ maxLength: 200 }), { maxItems: 20 })),
    intent: Type.Optional(Type.String({ maxLength: 2000 })),
  },
  { additionalProperties: true },
);
export type Context = Static<typeof Context>;

/** Platform-observed signals; every key is reverse-domain named. */
export const Signals = Type.Record(Type.String({ pattern: '^[a-z0-9-]+(\\.[a-z0-9_-]+)+$' }), Type.Unknown());
export type Signals = Static<typeof Signals>;
export const Attribution = Type.Record(Type.String(), Type.Unknown());
export type Attribution = Static<typeof Attribution>;

export const Buyer = Type.Object(
  {
    email: Type.Optional(Type.String({ format: 'email', maxLength: 254 })),
    first_name: Type.Optional(Type.String({ maxLength: 200 })),
    last_name: Type.Optional(Type.String({ maxLength: 200 })),
    phone_number: Type.Optional(Type.String({ maxLength: 40 })),
  },
  { additionalProperties: true },
);
export type Buyer = Static<typeof Buyer>;

/** Body of every REST transport error (spec §7, layer 1). */
export const TransportError = Type.Object({
  code: Type.String(),
  content: Type.String(),
});
export type TransportError = Static<typeof TransportError>;

/** Resource id in a path or an MCP `id` argument. */
export const ResourceId = Type.String({ minLength: 1, maxLength: 200 });

/** `meta` of every MCP tools/call (spec §4.1, §5). */
export const McpMeta = Type.Object(
  {
    'proto-agent': Type.Object({ profile: Type.String({ minLength: 1, maxLength: 2048 }) }, { additionalProperties: true }),
    'idempotency-key': Type.Optional(Type.String({ minLength: 1, maxLength: 255 })),
    'request-id': Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
  },
  { additionalProperties: true },
);
export type McpMeta = Static<typeof McpMeta>;

export type { Static, TSchema };
