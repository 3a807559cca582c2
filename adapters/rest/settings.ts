/**
 * The REST adapter's settings (`adapter.settings` of a `type: rest` tenant): where the store is,
 * how to sign calls to it, how it writes money and pages lists, and per contract method the HTTP
 * call and the JSONata mappings. Every operation has a default for a store that follows the
 * gateway's documented store API (docs/adapters/rest-store-api.yaml, defaults.ts); a tenant file
 * overrides what its store does differently, field by field. Secrets are never here: `secret`,
 * `token`, `password` and `key` name entries of `adapter.credentials` ({env} / {file} references).
 */
import { Type, type Static } from '@sinclair/typebox';
import { ORDER_LINKS } from '../contract.js';
import { doc, StringEnum } from '../../schemas/common.js';
import { NAMES_CREDENTIAL } from '../definition.js';

const Credential = Type.String({ minLength: 1, description: 'the name of an entry of $.adapter.credentials', [NAMES_CREDENTIAL]: true });
/** A JSONata expression: inline text, or `{file}` (a .jsonata file, relative to the tenant file). */
const expression = (description = 'a JSONata expression') =>
  Type.Union([Type.String({ minLength: 1 }), Type.Object({ file: Type.String({ minLength: 1 }) }, { additionalProperties: false })], {
    description: `${description}: inline, or {file: mappings/<tenant>/<name>.jsonata}`,
  });
const Expression = expression();
export type ExpressionSource = Static<typeof Expression>;
const HeaderName = Type.String({ pattern: '^[A-Za-z0-9-]+$' });

const HTTP_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;

/** Most steps an operation declares. */
const MAX_STEPS = 12;
/** Most store calls one run of an operation makes (for_each included), unless the tenant sets `max_calls_per_run`. */
export const DEFAULT_MAX_CALLS = 100;
export const DEFAULT_CONCURRENCY = 4;

const Path = Type.String({
  pattern: '^(/|https?://)',
  description:
    'relative to base_url (or an absolute URL, e.g. a health check elsewhere); `{name}` / `{a.b}` take a URL-encoded value of the input',
  examples: ['/carts/{handle}'],
});
const Accept = Type.Array(Type.Integer({ minimum: 400, maximum: 499 }), {
  uniqueItems: true,
  description: 'statuses besides 2xx whose body is an answer for the mappings (e.g. 402, 409 of an order refusal)',
  examples: [[409, 422]],
});
const Headers = expression('JSONata giving an object of headers for this call (e.g. an Idempotency-Key)');

const Auth = Type.Union(
  [
    Type.Object({ type: Type.Literal('none') }, { additionalProperties: false }),
    Type.Object({ type: Type.Literal('bearer'), token: Credential }, { additionalProperties: false }),
    Type.Object({ type: Type.Literal('basic'), username: Credential, password: Credential }, { additionalProperties: false }),
    Type.Object(
      {
        type: Type.Literal('api_key'),
        header: HeaderName,
        key: Credential,
        prefix: doc(
          Type.Optional(Type.String()),
          'Text sent before the key, exactly as written: its space too, so write "Token " (quoted) for `Token <key>`; ' +
            '"Token" sends `Token<key>`.',
        ),
      },
      { additionalProperties: false },
    ),
    Type.Object(
      {
        type: Type.Literal('hmac'),
        secret: Credential,
        signature_header: doc(HeaderName, 'Header carrying the signature.'),
        timestamp_header: doc(Type.Optional(HeaderName), 'Header carrying the time signed; absent: no timestamp is sent.'),
        timestamp_format: doc(Type.Optional(StringEnum(['unix', 'iso'])), '`unix` seconds (default) or `iso` (RFC 3339).'),
        /**
         * What is signed, with {timestamp} {method} {path} (path and query as sent) {body} and
         * {body_sha256} (hex) filled in; `\n` is a newline. Default "{timestamp}\n{method}\n{path}\n{body_sha256}".
         */
        payload: doc(
          Type.Optional(Type.String({ minLength: 1 })),
          'What is signed, with {timestamp} {method} {path} (path and query as sent) {body} and ' +
            '{body_sha256} (hex) filled in; `\n` is a newline. Default ' +
            '"{timestamp}\n{method}\n{path}\n{body_sha256}".',
        ),
        algorithm: Type.Optional(StringEnum(['sha256', 'sha512'])),
        encoding: Type.Optional(StringEnum(['hex', 'base64'])),
        headers: doc(
          Type.Optional(Type.Record(HeaderName, Type.String())),
          'Plain headers sent with every call (a key id, an account), not secrets.',
        ),
      },
      { additionalProperties: false },
    ),
  ],
  { description: 'one of none, bearer, basic, api_key, hmac with its fields' },
);
export type AuthSettings = Static<typeof Auth>;

/** An operation's or a step's own credentials, for a store whose API parts take different ones. */
const CallAuth = doc(
  Type.Optional(Auth),
  "This call signs with these credentials instead of `adapter.settings.auth` (a step inherits its operation's): " +
    'a store whose admin API takes another key than its shop API',
);

/** One store call of a multi-step operation. */
const Step = Type.Object(
  {
    name: Type.String({
      pattern: '^[A-Za-z_][A-Za-z0-9_]*$',
      description: 'the answer is $steps.<name> (and $answers.<name>) in later steps and in `response`',
    }),
    method: StringEnum(HTTP_METHODS, { description: 'HTTP method' }),
    path: Path,
    query: Type.Optional(expression('JSONata giving an object of query parameters (arrays repeat the name)')),
    headers: Type.Optional(Headers),
    auth: CallAuth,
    body: Type.Optional(expression('JSONata giving the JSON body')),
    when: Type.Optional(expression('JSONata: the step runs only when this is true (skipped: $steps.<name> is absent)')),
    for_each: Type.Optional(expression('JSONata giving an array: one call per element ($item, $index), answers collected in order')),
    concurrency: Type.Optional(
      Type.Integer({ minimum: 1, maximum: 8, default: DEFAULT_CONCURRENCY, description: 'for_each calls in flight at most' }),
    ),
    accept: Type.Optional(Accept),
    error: Type.Optional(
      expression("JSONata over a refused answer's body (with $status) giving the message of the error the operation fails with"),
    ),
  },
  { additionalProperties: false },
);
export type StepSettings = Static<typeof Step>;

/** One HTTP call to the store and the mapping of its answer, or a short sequence of calls (`steps`). */
const Operation = Type.Object(
  {
    method: Type.Optional(StringEnum(HTTP_METHODS)),
    path: doc(Type.Optional(Path), 'Relative to base_url; `{name}` or `{a.b}` takes a value of the request input, URL-encoded.'),
    query: doc(Type.Optional(Expression), 'JSONata over the request input, giving an object of query parameters (arrays repeat the name).'),
    body: doc(Type.Optional(Expression), 'JSONata over the request input, giving the JSON body.'),
    headers: Type.Optional(Headers),
    auth: CallAuth,
    steps: Type.Optional(
      Type.Array(Step, {
        minItems: 1,
        maxItems: MAX_STEPS,
        description: 'ordered store calls instead of method/path/query/body; `response` then maps $steps (`$` is $steps too)',
      }),
    ),
    response: doc(
      Type.Optional(Expression),
      "JSONata over the store's JSON answer (with $request, $status, $headers), giving the contract's shape.",
    ),
    accept: doc(Type.Optional(Accept), 'Statuses besides 2xx whose body is an answer for `response` (e.g. 402, 409 of an order refusal).'),
  },
  { additionalProperties: false },
);
export type OperationSettings = Static<typeof Operation>;

const Webhooks = Type.Object(
  {
    secret: Credential,
    signature_header: doc(Type.Optional(HeaderName), 'Default X-Store-Signature (the documented store API).'),
    /**
     * A regular expression over the header with named groups `signature` (and `timestamp` when the
     * time is signed), e.g. "t=(?<timestamp>\\d+),v1=(?<signature>[0-9a-f]+)". Default: the whole header.
     */
    signature_pattern: doc(
      Type.Optional(Type.String({ minLength: 1 })),
      'A regular expression over the header with named groups `signature` (and `timestamp` when ' +
        'the time is signed), e.g. "t=(?<timestamp>\\d+),v1=(?<signature>[0-9a-f]+)". Default: the ' +
        'whole header.',
    ),
    signed_payload: doc(
      Type.Optional(Type.String({ minLength: 1 })),
      'What is signed: {body} (default) or with {timestamp}, e.g. "{timestamp}.{body}".',
    ),
    algorithm: Type.Optional(StringEnum(['sha256', 'sha512'])),
    encoding: doc(Type.Optional(StringEnum(['hex', 'base64'])), 'Default base64.'),
    tolerance_seconds: doc(
      Type.Optional(Type.Integer({ minimum: 1 })),
      'Deliveries older than this (needs a signed timestamp) are refused; default 300.',
    ),
    /**
     * Where the event's fields are: a dotted path into the JSON body, or `header:<name>`. Event
     * types other than `order_types` are acknowledged and ignored. Default: the documented API's
     * {id, type, orderId, reference} with types order.created and order.updated.
     */
    event: Type.Optional(
      Type.Object(
        {
          id: Type.String({ minLength: 1 }),
          type: Type.String({ minLength: 1 }),
          order_id: Type.String({ minLength: 1 }),
          reference: Type.Optional(Type.String({ minLength: 1 })),
          store_reference: doc(
            Type.Optional(Type.String({ minLength: 1 })),
            'Where the store-side reference the order came from is: its cart or payment id, named at placement ' +
              'or handoff as `storeReference`.',
          ),
          order_types: Type.Array(Type.String({ minLength: 1 }), { minItems: 1 }),
        },
        { additionalProperties: false },
      ),
    ),
  },
  { additionalProperties: false },
);
export type WebhookSettings = Static<typeof Webhooks>;

const FINISHING = ['gateway_charged', 'store_charged', 'handoff'] as const;

export const RestSettings = Type.Object(
  {
    base_url: doc(
      Type.String({ pattern: '^https?://' }),
      "The store API's root, e.g. https://shop.example/api/v2 (no trailing slash needed).",
    ),
    storefront_url: doc(Type.String({ format: 'uri' }), "The store's home page (continue_url when there is nothing to hand over)."),
    currencies: doc(
      Type.Array(Type.String({ pattern: '^[A-Z]{3}$' }), { minItems: 1 }),
      "Presentment currencies, the store's default first.",
    ),
    money: doc(
      StringEnum(['decimal', 'minor']),
      'How the store writes amounts: `decimal` strings ("35.00", the currency\'s exponent) or `minor` unit integers.',
    ),
    money_rounding: doc(
      Type.Optional(StringEnum(['exact', 'half_up'])),
      '`half_up`: a decimal amount with more digits than the currency has (a store that keeps amounts unrounded, ' +
        'e.g. 67.473 USD) becomes minor units rounded once, half away from zero, as such stores charge; ' +
        '`exact` (default): such an amount is an invalid answer.',
    ),
    auth: Type.Optional(Auth),
    headers: doc(
      Type.Optional(Type.Record(HeaderName, Type.String())),
      'Extra headers on every call (an API version, a shop id); not secrets.',
    ),
    max_calls_per_run: doc(
      Type.Optional(Type.Integer({ minimum: 1, maximum: 1000, default: DEFAULT_MAX_CALLS })),
      'Most store calls one run of an operation makes, `for_each` calls included (default 100); reaching it fails the ' +
        "run. Raise it for a store that needs a call per id, or batch the ids (docs/adapters/rest.md, 'Call budget').",
    ),
    pagination: Type.Optional(
      Type.Object(
        {
          style: doc(
            StringEnum(['cursor', 'page', 'offset']),
            'cursor: the store returns an opaque next cursor; page: numbered pages; offset: item offsets. Default cursor.',
          ),
          first_page: doc(
            Type.Optional(Type.Integer({ minimum: 0, maximum: 1 })),
            'Number of the first page (page style): 1 (default) or 0.',
          ),
          max_limit: doc(
            Type.Optional(Type.Integer({ minimum: 1, maximum: 1000 })),
            "Most items per page the store serves (the gateway's limit is clamped to it); default 100.",
          ),
        },
        { additionalProperties: false },
      ),
    ),
    capabilities: Type.Optional(
      Type.Object(
        {
          lookup_keys: Type.Optional(Type.Array(StringEnum(['sku', 'handle']), { uniqueItems: true })),
          quotes_shipping: Type.Optional(Type.Boolean()),
          pickup: doc(
            Type.Optional(Type.Boolean()),
            'The store has pickup locations (`pickup_locations` lists them) and its quote mapping prices a `pickup` ' +
              'fulfillment method at one (`destination.locationId`); default false.',
          ),
          location_stock: doc(
            Type.Optional(Type.Boolean()),
            "With `pickup`: the lookup mapping gives each variant's `locationStock` (stock per location); default false.",
          ),
          quotes_tax: Type.Optional(Type.Boolean()),
          rejection_reasons: doc(Type.Optional(Type.Boolean()), "The store says why a code is refused (mapped to the contract's reasons)."),
          accepted_claims: Type.Optional(Type.Array(Type.String({ minLength: 1 }))),
          finishing: doc(
            Type.Optional(Type.Array(StringEnum(FINISHING), { minItems: 1, uniqueItems: true })),
            'Finishing modes the store supports, preferred first; default gateway_charged and handoff.',
          ),
          order_links: doc(
            Type.Optional(Type.Array(StringEnum(ORDER_LINKS), { uniqueItems: true })),
            "How the store ties an order to its checkout: `reference` (it keeps the gateway's reference with the order; default) " +
              'and/or `store_reference` (it names its own cart or payment id as `storeReference` in the checkout_url and ' +
              'place_order answers, and reports it with the order). Without `reference` every such answer must name one.',
          ),
        },
        { additionalProperties: false },
      ),
    ),
    /**
     * Shared JSONata functions callable as $name(...) in every mapping, e.g. product: "function($i) {...}",
     * defined in this order (a later one may call an earlier one). Per-call values ($request, $status)
     * are not visible inside them: pass what they need as arguments.
     */
    functions: doc(
      Type.Optional(Type.Record(Type.String({ pattern: '^[A-Za-z_][A-Za-z0-9_]*$' }), Expression)),
      'Shared JSONata functions callable as $name(...) in every mapping, e.g. product: ' +
        '"function($i) {...}", defined in this order (a later one may call an earlier one). ' +
        'Per-call values ($request, $status) are not visible inside them: pass what they need as ' +
        'arguments.',
    ),
    /**
     * A .jsonata file of shared functions, each `$name := function(...) {...};` starting a line,
     * relative to the tenant file; defined before `functions`.
     */
    functions_file: doc(
      Type.Optional(Type.String({ minLength: 1 })),
      'A .jsonata file of shared functions, each `$name := function(...) {...};` starting a ' +
        'line, relative to the tenant file; defined before `functions`.',
    ),
    operations: Type.Optional(
      Type.Object(
        {
          search: Type.Optional(Operation),
          lookup: Type.Optional(Operation),
          quote_create: doc(
            Type.Optional(Operation),
            "The store's cart: `create` without a handle, `update` with one (404 = expired: created anew).",
          ),
          quote_update: Type.Optional(Operation),
          checkout_url: doc(
            Type.Optional(Type.Union([Operation, Type.Literal(false)])),
            '`false`: the store has no checkout page; no call is made, the storefront is the page and handoff is off.',
          ),
          place_order: Type.Optional(Operation),
          find_order: Type.Optional(Operation),
          get_order: Type.Optional(Operation),
          orders_changed_since: Type.Optional(Operation),
          ping: Type.Optional(Operation),
          register_webhook: doc(
            Type.Optional(Operation),
            '`npm run rest -- webhooks register`: asks the store to send its order webhooks to `{url, events}` (the ' +
              "tenant's base_url, path prefix and /webhooks/backend; `webhooks.event.order_types`). Default POST /webhooks " +
              '{url, events}; make it safe to run again (look the URL up first, `when`), as the reference store is.',
          ),
          pickup_locations: doc(
            Type.Optional(Operation),
            "The store's pickup locations (with `capabilities.pickup`), as `PickupLocation[]` ({id, name, address, " +
              'readyWithinHours?}). Default GET /locations, answer `{locations: [...]}`.',
          ),
          /**
           * The store's customer login (identity linking): `{email, password}` to `{customerId, email}`, or
           * null when the store refuses the pair, whatever the reason (no user enumeration). Declared: the
           * tenant has a login source. Default POST /customers/login, its 422 (a refused login) mapped to null.
           */
          authenticate_customer: doc(
            Type.Optional(Operation),
            "The store's customer login (identity linking): `{email, password}` to `{customerId, email}`, or " +
              'null when the store refuses the pair, whatever the reason (no user enumeration). Declared: the ' +
              'tenant has a login source. Default POST /customers/login, its 422 (a refused login) mapped to null.',
          ),
        },
        { additionalProperties: false },
      ),
    ),
    webhooks: doc(Type.Optional(Webhooks), 'Order webhooks from the store; without them, orders are polled (`orders_changed_since`).'),
    polling: doc(
      Type.Optional(
        Type.Union([
          Type.Boolean(),
          Type.Object(
            {
              since: doc(
                StringEnum(['inclusive', 'exclusive']),
                "How the store's `orders_changed_since` reads `since`: `inclusive` (>=, default) or `exclusive` (>); " +
                  'the adapter asks an exclusive store for a millisecond earlier, so a change at the cursor is not missed.',
              ),
            },
            { additionalProperties: false },
          ),
        ]),
      ),
      'Poll `orders_changed_since` for orders changed since the last poll, on the durable poll queue: every minute for a ' +
        'store without webhooks, every 5 minutes as the net under `webhooks` (`adapter.order_poll_seconds` overrides). ' +
        '`true` or `{since: inclusive|exclusive}`.',
    ),
  },
  { additionalProperties: false },
);
export type RestSettings = Static<typeof RestSettings>;

export type OperationName = keyof NonNullable<RestSettings['operations']>;
