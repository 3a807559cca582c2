/**
 * The generic REST adapter: a home-grown store's HTTP API mapped onto the adapter contract by
 * the tenant file alone. Per contract method one HTTP call (defaults.ts for stores following the
 * documented store API, the tenant's `operations` for any other), its query and body built by
 * JSONata from the contract request, and the store's answer turned into the contract's shape by
 * a JSONata `response` mapping, then checked against the shape the gateway relies on, so a bad
 * answer names the tenant, the method and the expression.
 *
 * The store's cart is the session's backend handle: `quote` updates it (PUT) or creates it (POST;
 * also when the store forgot it, 404), `checkoutUrl` asks the store for its checkout page for it,
 * `placeOrder` orders it. Deadlines and retries are the resilient wrapper's (the store client
 * marks what may be retried).
 */
import {
  BackendError,
  type Adapter,
  type AdapterCapabilities,
  type AuthenticatedCustomer,
  type CustomerCredentials,
  type CheckoutPage,
  type CheckoutUrlRequest,
  type LookupResult,
  type OrderChange,
  type OrderLinks,
  type OrderSnapshot,
  type PickupLocation,
  type PlaceOrderRequest,
  type PlaceOrderResult,
  type Quote,
  type QuoteRequest,
  type SearchPage,
  type SearchQuery,
} from '../contract.js';
import { dirname } from 'node:path';
import { ConfigError } from '../kit/config-error.js';
import { signer } from './auth.js';
import { DEFAULT_WEBHOOKS } from './defaults.js';
import { digest } from './digest.js';
import { lineChanges } from './line-changes.js';
import {
  checkNames,
  compileSource,
  MappingError,
  runMapping,
  sharedFunction,
  SourceText,
  sourceOf,
  type Expression,
  type MappingSite,
} from './mapping.js';
import { moneyFunctions } from './money.js';
import { settleChanges, storeSince, type SinceBound } from './order-changes.js';
import { orderLinks } from './order-links.js';
import { PageTokens, type NextPage, type PagePosition } from './page-token.js';
import { DEFAULT_MAX_CALLS, type AuthSettings, type ExpressionSource, type OperationName, type RestSettings } from './settings.js';
import { compileOperations, OperationCompiler, SETTINGS_PATH, type Operation } from './operation-compiler.js';
import { runOperation, type OperationRun, type RunContext, type TraceEvent } from './steps.js';
import { StoreClient } from './store-client.js';
import { webhookVerifier, type WebhookVerifier } from './webhook-verifier.js';

export interface RestAdapterContext {
  credentials: Record<string, string>;
  /** The tenant file, for error messages. */
  where: string;
  /** Folder of the tenant file (mapping files are relative to it); default: the tenant file's. */
  baseDir?: string;
  tenantId: string;
  now: () => number;
  /** The gateway's check of an answer's shape: the problem, or undefined when it fits. */
  answerProblem?: (method: string, answer: unknown) => string | undefined;
  /** Sees every store exchange (`npm run rest -- check --live`). */
  trace?: (event: TraceEvent) => void;
}

/** Pages of changed orders read per poll at most. */
const MAX_CHANGE_PAGES = 20;
/** How often a tenant with webhooks polls (the net for lost deliveries), as WooCommerce's does. */
const NET_POLL_SECONDS = 300;
/** Names every mapping may use besides JSONata's own, the shared functions and its own. */
const ADAPTER_NAMES = [
  'money',
  'storeMoney',
  'currency',
  'storefront',
  'request',
  'status',
  'headers',
  'steps',
  'answers',
  'item',
  'index',
  'lineChanges',
  'digest',
];

/**
 * What keys the page tokens: the tenant and its store credentials, the same on every replica. A
 * store without credentials gets tokens that are bound but not secret; the gateway's own cursor
 * (signed with GATEWAY_SECRET) is what a caller holds.
 */
const cursorSecret = ({ tenantId, credentials }: RestAdapterContext) =>
  JSON.stringify([tenantId, Object.entries(credentials).sort(([a], [b]) => a.localeCompare(b))]);

const list = (value: unknown): unknown[] => (value === undefined || value === null ? [] : Array.isArray(value) ? value : [value]);
const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
/** The members `names` of `mapped` that are numbers, as strings (the rest stay for the shape check). */
const ids = (mapped: Record<string, unknown>, ...names: string[]) =>
  Object.fromEntries(names.flatMap((name) => (typeof mapped[name] === 'number' ? [[name, String(mapped[name])]] : [])));

export class RestAdapter implements Adapter {
  readonly kind = 'rest';
  readonly capabilities: AdapterCapabilities;
  readonly storefrontUrl: string;
  readonly ordersChangedSince?: (sinceIso: string, signal?: AbortSignal) => Promise<OrderChange[]>;
  readonly orderPollSeconds?: number;
  readonly authenticateCustomer?: (credentials: CustomerCredentials, signal?: AbortSignal) => Promise<AuthenticatedCustomer | null>;
  private readonly ops: Record<OperationName, Operation>;
  /** False: the tenant maps no checkout page (`operations.checkout_url: false`). */
  private readonly checkoutLink: boolean;
  private readonly compiler: OperationCompiler;
  private readonly client: StoreClient;
  /** Clients of operations and steps with their own `auth`, by those settings. */
  private readonly ownClients = new Map<string, StoreClient>();
  private readonly pages: PageTokens;
  private readonly maxLimit: number;
  private readonly maxCalls: number;
  private readonly bindings: Record<string, unknown>;
  private readonly secrets: string[];
  private readonly verifier?: WebhookVerifier;

  constructor(
    private readonly settings: RestSettings,
    private readonly context: RestAdapterContext,
  ) {
    const { where } = context;
    const credential = (name: string, path: string) => {
      const value = context.credentials[name];
      if (value === undefined)
        throw new ConfigError(
          `${where}: ${SETTINGS_PATH}.${path} names the credential "${name}", which $.adapter.credentials does not define`,
        );
      return value;
    };
    const clientOptions = {
      baseUrl: settings.base_url,
      headers: Object.fromEntries(Object.entries(settings.headers ?? {}).map(([name, value]) => [name.toLowerCase(), value])),
      now: context.now,
      tenant: context.tenantId,
    };
    this.client = new StoreClient({ ...clientOptions, sign: signer(settings.auth, (name, field) => credential(name, `auth.${field}`)) });
    const clientFor = (auth: AuthSettings, path: string) => {
      const key = JSON.stringify(auth);
      let client = this.ownClients.get(key);
      if (!client) {
        client = new StoreClient({ ...clientOptions, sign: signer(auth, (name, field) => credential(name, `${path}.${field}`)) });
        this.ownClients.set(key, client);
      }
      return client;
    };
    this.compiler = new OperationCompiler(where, context.baseDir ?? dirname(where), clientFor);
    ({ ops: this.ops, checkoutLink: this.checkoutLink } = compileOperations(settings, this.compiler));
    this.secrets = Object.values(context.credentials);
    this.pages = new PageTokens(settings.pagination?.style ?? 'cursor', settings.pagination?.first_page ?? 1, cursorSecret(context));
    this.maxLimit = settings.pagination?.max_limit ?? 100;
    this.maxCalls = settings.max_calls_per_run ?? DEFAULT_MAX_CALLS;
    this.storefrontUrl = settings.storefront_url.replace(/\/+$/, '');
    const currency = settings.currencies[0]!;
    const money = moneyFunctions(settings.money, currency, settings.money_rounding);
    this.bindings = { money: money.money, storeMoney: money.storeMoney, currency, storefront: this.storefrontUrl, lineChanges, digest };
    if (settings.webhooks) {
      const secret = credential(settings.webhooks.secret, 'webhooks.secret');
      const event = settings.webhooks.event ?? DEFAULT_WEBHOOKS.event;
      this.verifier = webhookVerifier({ ...DEFAULT_WEBHOOKS, ...settings.webhooks, event }, secret, context.now);
    }
    if (settings.polling) {
      const bound = settings.polling === true ? 'inclusive' : settings.polling.since;
      this.ordersChangedSince = (since, signal) => this.changedSince(since, bound, signal);
      // Under webhooks, polling only catches the deliveries the store lost: less often.
      if (settings.webhooks) this.orderPollSeconds = NET_POLL_SECONDS;
    }
    // Only a tenant that maps its store's login has one: every other REST tenant offers no identity linking.
    if (settings.operations?.authenticate_customer) this.authenticateCustomer = (credentials, signal) => this.login(credentials, signal);
    const caps = settings.capabilities ?? {};
    const finishing = caps.finishing ?? (this.checkoutLink ? ['gateway_charged', 'handoff'] : ['gateway_charged']);
    if (!this.checkoutLink && finishing.includes('handoff'))
      throw new ConfigError(
        `${where}: ${SETTINGS_PATH}.capabilities.finishing lists handoff, ` +
          'but operations.checkout_url is false (the store has no checkout page)',
      );
    this.capabilities = {
      lookupKeys: caps.lookup_keys ?? [],
      customFilters: [],
      currencies: settings.currencies,
      quotesShipping: caps.quotes_shipping ?? true,
      quotesTax: caps.quotes_tax ?? true,
      pickup: caps.pickup ?? false,
      locationStock: (caps.pickup ?? false) && (caps.location_stock ?? false),
      multiGroup: false,
      fulfillmentDiscovery: false,
      rejectionReasons: caps.rejection_reasons ?? false,
      acceptedClaims: caps.accepted_claims ?? [],
      finishing,
      orderLinks: orderLinks(settings, where),
    };
  }

  /**
   * Defines the tenant's shared functions once: those of `functions_file`, then `functions` in
   * order (each seeing the ones before it); then checks every mapping for names defined nowhere.
   */
  defineFunctions(functions: Record<string, ExpressionSource>, functionsFile?: string): void {
    const { where } = this.context;
    const define = (name: string, value: unknown, source: SourceText, path: string) => {
      if (typeof value !== 'function' && !(isObject(value) && value._jsonata_lambda === true)) {
        throw new ConfigError(`${where}: ${path} must be a JSONata function, e.g. "function($x) { ... }"`);
      }
      this.bindings[name] = sharedFunction(name, value, source);
    };
    const evaluate = (expression: Expression, input: unknown = {}) => {
      try {
        return expression.evaluate(input, this.bindings);
      } catch (error) {
        const { message, position, token } = error as { message?: string; position?: number; token?: string };
        const place = expression.source.file ? expression.source.at(position, token) : `${where}: ${expression.path}`;
        throw new ConfigError(`${place} cannot be evaluated: ${message ?? String(error)}`);
      }
    };
    const known = new Set([...ADAPTER_NAMES, ...Object.keys(functions)]);
    if (functionsFile) {
      const path = `${SETTINGS_PATH}.functions_file`;
      const source = sourceOf({ file: functionsFile }, path, where, this.context.baseDir ?? dirname(where));
      const names = [...source.text.matchAll(/^\$([A-Za-z_]\w*)\s*:=/gm)].map((m) => m[1]!);
      if (names.length === 0) throw new ConfigError(`${source.file}: defines no function (write each as "$name := function($x) {...};")`);
      names.forEach((n) => known.add(n));
      // The file is a block of bindings; its value is the object of the functions it defines.
      const text = `(${source.text.replace(/;\s*$/, '')}\n;{${names.map((n) => `"${n}": $${n}`).join(', ')}})`;
      // Line numbers stay those of the file: the block only adds "(" before its first character.
      const block = new SourceText(text, path, source.file);
      const compiled = compileSource(block, where);
      checkNames(compiled, known, where);
      const value = evaluate(compiled) as Record<string, unknown>;
      for (const name of names) define(name, value[name], block, `${source.file}: $${name}`);
    }
    for (const [name, text] of Object.entries(functions)) {
      const path = `${SETTINGS_PATH}.functions.${name}`;
      const read = sourceOf(text, path, where, this.context.baseDir ?? dirname(where));
      const source = new SourceText(read.text, path, read.file, name, read.origin);
      const expression = compileSource(source, where);
      checkNames(expression, known, where);
      define(name, evaluate(expression), source, path);
    }
    for (const expression of this.compiler.expressions) checkNames(expression, known, where);
  }

  private site(method: string, op: Operation, answer?: unknown): MappingSite {
    // The answer excerpt is new with steps and mapping files; inline single calls keep their messages.
    const more = !op.single || op.response?.source.file !== undefined;
    return { tenant: this.context.tenantId, method, secrets: this.secrets, ...(more && answer !== undefined && { answer }) };
  }

  private runContext(): RunContext {
    return {
      tenant: this.context.tenantId,
      client: this.client,
      bindings: this.bindings,
      secrets: this.secrets,
      maxCalls: this.maxCalls,
      ...(this.context.trace && { trace: this.context.trace }),
    };
  }

  /** Runs the operation's calls for `input`; `not_found` only when `notFound` (a 404 the caller handles). */
  private send(
    method: string,
    op: Operation,
    input: unknown,
    signal: AbortSignal | undefined,
    notFound = false,
  ): Promise<OperationRun | 'not_found'> {
    return runOperation(op, method, input, this.runContext(), signal, notFound);
  }

  /** The store's answer through the operation's response mapping, checked against the contract method's shape. */
  private async answer<T>(
    method: string,
    op: Operation,
    run: OperationRun,
    request: unknown,
    shape?: (mapped: unknown) => T,
    check = true,
  ): Promise<T> {
    const { last } = run;
    const [input, extra] = op.single ? [last.body, {}] : [run.steps, { steps: run.steps, answers: run.answers }];
    const mapped = op.response
      ? runMapping(
          op.response,
          this.site(method, op, input),
          input,
          { ...this.bindings, request, status: last.status, headers: last.headers, ...extra },
          !shape,
        )
      : op.single
        ? last.body
        : run.steps;
    const result = shape ? shape(mapped) : (mapped as T);
    if (check) this.check(method, op, result);
    return result;
  }

  /** The gateway's shape check, failing with the tenant, the method and the expression. */
  private check(method: string, op: Operation, result: unknown): void {
    const problem = this.context.answerProblem?.(method, result);
    const path = op.response?.path ?? `${SETTINGS_PATH}.operations.${op.name}`;
    if (problem !== undefined) throw new MappingError(this.site(method, op), path, `gave an answer that does not fit: ${problem}`);
  }

  private async call<T>(
    method: string,
    op: Operation,
    input: unknown,
    signal?: AbortSignal,
    shape?: (mapped: unknown) => T,
    check = true,
  ): Promise<T> {
    const run = await this.send(method, op, input, signal);
    return this.answer(method, op, run as OperationRun, input, shape, check);
  }

  async search(query: SearchQuery, signal?: AbortSignal): Promise<SearchPage> {
    const limit = Math.max(1, Math.min(query.limit, this.maxLimit));
    const at = this.pages.position(query, limit);
    const input = { text: query.text, categories: query.categories, price: query.price, custom: query.custom, limit, ...at };
    return this.call('search', this.ops.search, input, signal, (mapped) => {
      const page = (isObject(mapped) ? mapped : {}) as { products?: unknown; totalCount?: unknown } & NextPage;
      const next = this.pages.next(query, limit, at, page);
      return {
        products: list(page.products),
        ...(Number.isSafeInteger(page.totalCount) && { totalCount: page.totalCount }),
        ...(next && { nextPageToken: next }),
      } as SearchPage;
    });
  }

  lookup(ids: string[], signal?: AbortSignal): Promise<LookupResult[]> {
    if (ids.length === 0) return Promise.resolve([]);
    return this.call('lookup', this.ops.lookup, { ids }, signal, (mapped) => list(mapped) as LookupResult[]);
  }

  /** The store's pickup locations (a mapped call), none for a tenant without `capabilities.pickup`. */
  async pickupLocations(signal?: AbortSignal): Promise<PickupLocation[]> {
    if (!this.capabilities.pickup) return [];
    return this.call('pickupLocations', this.ops.pickup_locations, {}, signal, (mapped) => list(mapped) as PickupLocation[]);
  }

  /** Updates the store cart named by the handle, or creates one (no handle, or the store forgot it). */
  async quote(asked: QuoteRequest, signal?: AbortSignal): Promise<Quote> {
    // The session's reference is not part of what the store prices (its checkout_url call carries it).
    const { reference: _, ...request } = asked;
    if (request.handle) {
      const updated = await this.send('quote', this.ops.quote_update, request, signal, true);
      if (updated !== 'not_found') return this.quoteFrom(this.ops.quote_update, updated, request);
    }
    const fresh = { ...request, handle: undefined };
    return this.quoteFrom(this.ops.quote_create, (await this.send('quote', this.ops.quote_create, fresh, signal)) as OperationRun, fresh);
  }

  private quoteFrom(op: Operation, run: OperationRun, request: QuoteRequest): Promise<Quote> {
    return this.answer('quote', op, run, request, (mapped) => {
      if (!isObject(mapped)) return mapped as Quote;
      const quote = { ...mapped } as unknown as Quote & { handle?: unknown };
      if (typeof quote.handle === 'number') quote.handle = String(quote.handle);
      // Without declared reasons, a refused code says nothing more than "refused".
      if (!this.capabilities.rejectionReasons && isObject(quote.discounts) && Array.isArray(quote.discounts.rejected)) {
        quote.discounts = { ...quote.discounts, rejected: quote.discounts.rejected.map(({ reason: _, ...rest }) => rest) };
      }
      this.checkEveryLine(op, request, quote);
      return quote;
    });
  }

  /** A requested line that is neither priced nor a line problem would vanish from the buyer's cart: the mapping is wrong. */
  private checkEveryLine(op: Operation, request: QuoteRequest, quote: Quote): void {
    if (!Array.isArray(quote.lines) || !Array.isArray(quote.lineProblems)) return;
    const seen = new Set([...quote.lines, ...quote.lineProblems].map((l) => (l as { lineId?: unknown }).lineId));
    const lost = request.lines.filter((l) => !seen.has(l.lineId)).map((l) => l.lineId);
    if (lost.length > 0)
      throw new MappingError(
        this.site('quote', op),
        op.response?.source.at(undefined) ?? `${SETTINGS_PATH}.operations.${op.name}`,
        `dropped the line${lost.length > 1 ? 's' : ''} ${lost.join(', ')}: a line the store does not price needs a lineProblems entry`,
      );
  }

  /** The handle of a store cart holding `request`: the given one, or a new cart's (none for a stateless store). */
  private async cartFor(request: QuoteRequest, signal?: AbortSignal): Promise<string | undefined> {
    return request.handle ?? (await this.quote(request, signal)).handle;
  }

  /**
   * Runs a call on the session's store cart; when the store no longer knows the cart (404), makes
   * a new one from `quote` and runs it once more. Returns the answer and the handle it used.
   * A stateless store (its quotes give no handle) gets the request without one.
   */
  private async onCart(
    method: string,
    op: Operation,
    quote: QuoteRequest,
    input: (handle: string | undefined) => unknown,
    signal?: AbortSignal,
  ) {
    let handle = await this.cartFor(quote, signal);
    let answer = await this.send(method, op, input(handle), signal, handle !== undefined);
    if (answer === 'not_found') {
      handle = await this.cartFor({ ...quote, handle: undefined }, signal);
      answer = await this.send(method, op, input(handle), signal, true);
      if (answer === 'not_found')
        throw new BackendError(`tenant ${this.context.tenantId}: ${method}: the store does not find the cart it has just made`, true);
    }
    return { answer, handle, input: input(handle) };
  }

  async checkoutUrl(request: CheckoutUrlRequest, signal?: AbortSignal): Promise<CheckoutPage> {
    // No checkout page mapped: no call; the storefront is where a buyer goes.
    if (!this.checkoutLink) return { url: this.storefrontUrl };
    const quote = { ...request.quote, handle: request.handle ?? request.quote.handle };
    const { answer, handle, input } = await this.onCart(
      'checkoutUrl',
      this.ops.checkout_url,
      quote,
      (h) => ({ ...request, handle: h }),
      signal,
    );
    return this.answer('checkoutUrl', this.ops.checkout_url, answer, input, (mapped) => ({
      url: (isObject(mapped) ? mapped.url : mapped) as string,
      ...(handle !== undefined && handle !== request.handle && { handle }),
      // A number is the store's id as text; anything else but text stays as it is, for the shape check to name.
      ...(isObject(mapped) &&
        mapped.storeReference != null && { storeReference: mapped.storeReference as string, ...ids(mapped, 'storeReference') }),
    }));
  }

  async placeOrder(request: PlaceOrderRequest, signal?: AbortSignal): Promise<PlaceOrderResult> {
    const { answer, input } = await this.onCart(
      'placeOrder',
      this.ops.place_order,
      request.quote,
      (h) => ({ ...request, quote: { ...request.quote, handle: h } }),
      signal,
    );
    // Store ids written as numbers are the contract's strings (an order id, a payment's store reference).
    return this.answer('placeOrder', this.ops.place_order, answer, input, (mapped) =>
      isObject(mapped) ? ({ ...mapped, ...ids(mapped, 'orderId', 'storeReference') } as PlaceOrderResult) : (mapped as PlaceOrderResult),
    );
  }

  /** `storeReference` and `handle` (the store's cart) reach the mapping for a store that keeps no reference. */
  findOrderByReference(reference: string, signal?: AbortSignal, links: OrderLinks = {}): ReturnType<Adapter['findOrderByReference']> {
    const input = { reference, storeReference: links.storeReference, handle: links.handle };
    return this.call('findOrderByReference', this.ops.find_order, input, signal, (mapped) => {
      if (!isObject(mapped)) return null;
      const { orderId, permalinkUrl } = mapped;
      return {
        orderId: typeof orderId === 'number' ? String(orderId) : (orderId as string),
        ...(typeof permalinkUrl === 'string' && { permalinkUrl }),
      };
    });
  }

  async getOrder(orderId: string, signal?: AbortSignal): Promise<OrderSnapshot | null> {
    const answer = await this.send('getOrder', this.ops.get_order, { orderId }, signal, true);
    if (answer === 'not_found') return null;
    return this.answer('getOrder', this.ops.get_order, answer, { orderId }, (mapped) => (mapped ?? null) as OrderSnapshot | null);
  }

  /** Orders changed since `sinceIso` (inclusive, whatever the store's `bound`), page after page, each once, oldest change first. */
  private async changedSince(sinceIso: string, bound: SinceBound, signal?: AbortSignal): Promise<OrderChange[]> {
    let at: PagePosition | undefined = this.pages.first();
    const changes: OrderChange[] = [];
    const since = storeSince(sinceIso, bound);
    for (let n = 0; at && n < MAX_CHANGE_PAGES; n++) {
      const input = { since, limit: this.maxLimit, ...at };
      const page = await this.call(
        'ordersChangedSince',
        this.ops.orders_changed_since,
        input,
        signal,
        (mapped) => (isObject(mapped) ? mapped : {}) as { changes?: unknown } & NextPage,
        false,
      );
      changes.push(...(list(page.changes) as OrderChange[]));
      at = this.pages.after(at, this.maxLimit, page);
    }
    const result = settleChanges(
      changes.map((c) => (isObject(c) ? { ...c, ...ids(c, 'orderId', 'storeReference') } : c)),
      sinceIso,
    );
    this.check('ordersChangedSince', this.ops.orders_changed_since, result);
    return result;
  }

  /** The store's answer to an email and password: the customer, or null for any refusal (one answer for all of them). */
  private login({ email, password }: CustomerCredentials, signal?: AbortSignal): Promise<AuthenticatedCustomer | null> {
    return this.call('authenticateCustomer', this.ops.authenticate_customer, { email, password }, signal, (mapped) =>
      isObject(mapped) && typeof mapped.customerId === 'number'
        ? ({ ...mapped, customerId: String(mapped.customerId) } as AuthenticatedCustomer)
        : ((mapped ?? null) as AuthenticatedCustomer | null),
    );
  }

  /** `npm run rest -- webhooks register`: the store's answer to registering `url` for the tenant's order events. */
  registerWebhook(url: string, signal?: AbortSignal): Promise<unknown> {
    const events = this.settings.webhooks?.event?.order_types ?? DEFAULT_WEBHOOKS.event.order_types;
    return this.call('registerWebhook', this.ops.register_webhook, { url, events }, signal, (mapped) => mapped, false);
  }

  verifyWebhook(headers: Record<string, string | string[] | undefined>, rawBody: Buffer) {
    return this.verifier?.(headers, rawBody) ?? null;
  }

  async ping(signal?: AbortSignal): Promise<void> {
    await this.send('ping', this.ops.ping, {}, signal);
  }

  async close(): Promise<void> {
    await Promise.all([this.client, ...this.ownClients.values()].map((client) => client.close()));
  }
}

export async function createRestAdapter(settings: RestSettings, context: RestAdapterContext): Promise<RestAdapter> {
  const adapter = new RestAdapter(settings, context);
  adapter.defineFunctions(settings.functions ?? {}, settings.functions_file);
  return adapter;
}
