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
  type CheckoutUrlRequest,
  type LookupResult,
  type OrderChange,
  type OrderSnapshot,
  type PickupLocation,
  type PlaceOrderRequest,
  type PlaceOrderResult,
  type Quote,
  type QuoteRequest,
  type SearchPage,
  type SearchQuery,
} from '../contract.js';
import { ConfigError } from '../kit/config-error.js';
import { signer } from './auth.js';
import { DEFAULT_OPERATIONS, DEFAULT_WEBHOOKS, type ResolvedOperation } from './defaults.js';
import { compileExpression, MappingError, runMapping, type Expression } from './mapping.js';
import { moneyFunctions } from './money.js';
import { PageTokens, type NextPage, type PagePosition } from './page-token.js';
import type { OperationName, RestSettings } from './settings.js';
import { StoreClient, type StoreAnswer } from './store-client.js';
import { webhookVerifier, type WebhookVerifier } from './webhook-verifier.js';

export interface RestAdapterContext {
  credentials: Record<string, string>;
  /** The tenant file, for error messages. */
  where: string;
  tenantId: string;
  now: () => number;
  /** The gateway's check of an answer's shape: the problem, or undefined when it fits. */
  answerProblem?: (method: string, answer: unknown) => string | undefined;
}

interface Operation {
  name: OperationName;
  method: string;
  path: string;
  query?: Expression;
  body?: Expression;
  response?: Expression;
  accept: number[];
}

const SETTINGS_PATH = '$.adapter.settings';
/** Pages of changed orders read per poll at most. */
const MAX_CHANGE_PAGES = 20;

const list = (value: unknown): unknown[] => (value === undefined || value === null ? [] : Array.isArray(value) ? value : [value]);
const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

function compileOperations(settings: RestSettings, file: string): Record<OperationName, Operation> {
  const entries = (Object.keys(DEFAULT_OPERATIONS) as OperationName[]).map((name) => {
    const own = settings.operations?.[name] ?? {};
    const merged: ResolvedOperation = { ...DEFAULT_OPERATIONS[name], ...own };
    const expression = (field: 'query' | 'body' | 'response') => {
      const source = merged[field];
      if (source === undefined) return undefined;
      const path = `${SETTINGS_PATH}.operations.${name}.${field}`;
      return compileExpression(source, field in own ? path : `${path} (default)`, file);
    };
    const query = expression('query');
    const body = expression('body');
    const response = expression('response');
    const operation: Operation = {
      name,
      method: merged.method,
      path: merged.path,
      accept: merged.accept ?? [],
      ...(query && { query }),
      ...(body && { body }),
      ...(response && { response }),
    };
    return [name, operation] as const;
  });
  return Object.fromEntries(entries) as Record<OperationName, Operation>;
}

export class RestAdapter implements Adapter {
  readonly kind = 'rest';
  readonly capabilities: AdapterCapabilities;
  readonly storefrontUrl: string;
  readonly ordersChangedSince?: (sinceIso: string, signal?: AbortSignal) => Promise<OrderChange[]>;
  private readonly ops: Record<OperationName, Operation>;
  private readonly client: StoreClient;
  private readonly pages: PageTokens;
  private readonly maxLimit: number;
  private readonly bindings: Record<string, unknown>;
  private readonly verifier?: WebhookVerifier;

  constructor(
    settings: RestSettings,
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
    this.ops = compileOperations(settings, where);
    this.client = new StoreClient({
      baseUrl: settings.base_url,
      sign: signer(settings.auth, (name, field) => credential(name, `auth.${field}`)),
      headers: Object.fromEntries(Object.entries(settings.headers ?? {}).map(([name, value]) => [name.toLowerCase(), value])),
      now: context.now,
      tenant: context.tenantId,
    });
    this.pages = new PageTokens(settings.pagination?.style ?? 'cursor', settings.pagination?.first_page ?? 1);
    this.maxLimit = settings.pagination?.max_limit ?? 100;
    this.storefrontUrl = settings.storefront_url.replace(/\/+$/, '');
    const currency = settings.currencies[0]!;
    const money = moneyFunctions(settings.money, currency);
    this.bindings = { money: money.money, storeMoney: money.storeMoney, currency, storefront: this.storefrontUrl };
    if (settings.webhooks) {
      const secret = credential(settings.webhooks.secret, 'webhooks.secret');
      const event = settings.webhooks.event ?? DEFAULT_WEBHOOKS.event;
      this.verifier = webhookVerifier({ ...DEFAULT_WEBHOOKS, ...settings.webhooks, event }, secret, context.now);
    }
    if (settings.polling) this.ordersChangedSince = (since, signal) => this.changedSince(since, signal);
    const caps = settings.capabilities ?? {};
    this.capabilities = {
      lookupKeys: caps.lookup_keys ?? [],
      customFilters: [],
      currencies: settings.currencies,
      quotesShipping: caps.quotes_shipping ?? true,
      quotesTax: caps.quotes_tax ?? true,
      pickup: false,
      locationStock: false,
      multiGroup: false,
      fulfillmentDiscovery: false,
      rejectionReasons: caps.rejection_reasons ?? false,
      acceptedClaims: caps.accepted_claims ?? [],
      finishing: caps.finishing ?? ['gateway_charged', 'handoff'],
    };
  }

  /** Evaluates the tenant's shared functions once, in order, each seeing the ones before it. */
  async defineFunctions(functions: Record<string, string>): Promise<void> {
    for (const [name, source] of Object.entries(functions)) {
      const path = `${SETTINGS_PATH}.functions.${name}`;
      const value = await compileExpression(source, path, this.context.where)
        .evaluate({}, this.bindings)
        .catch((error: unknown) => {
          throw new ConfigError(`${this.context.where}: ${path} cannot be evaluated: ${(error as Error).message}`);
        });
      if (typeof value !== 'function' && !(isObject(value) && value._jsonata_lambda === true)) {
        throw new ConfigError(`${this.context.where}: ${path} must be a JSONata function, e.g. "function($x) { ... }"`);
      }
      this.bindings[name] = value;
    }
  }

  /** Builds the call from `input`, sends it; `not_found` only when `notFound` (a 404 the caller handles). */
  private async send(
    method: string,
    op: Operation,
    input: unknown,
    signal: AbortSignal | undefined,
    notFound = false,
  ): Promise<StoreAnswer | 'not_found'> {
    const site = { tenant: this.context.tenantId, method };
    const query = op.query && (await runMapping(op.query, site, input, this.bindings, false));
    const body = op.body && (await runMapping(op.body, site, input, this.bindings, false));
    return this.client.send(
      method,
      { method: op.method, path: op.path, vars: input, query, body },
      notFound ? [...op.accept, 404] : op.accept,
      signal,
    );
  }

  /** The store's answer through the operation's response mapping, checked against the contract method's shape. */
  private async answer<T>(
    method: string,
    op: Operation,
    answer: StoreAnswer,
    request: unknown,
    shape?: (mapped: unknown) => T,
    check = true,
  ): Promise<T> {
    const site = { tenant: this.context.tenantId, method };
    const mapped = op.response
      ? await runMapping(
          op.response,
          site,
          answer.body,
          { ...this.bindings, request, status: answer.status, headers: answer.headers },
          !shape,
        )
      : answer.body;
    const result = shape ? shape(mapped) : (mapped as T);
    if (check) this.check(method, op, result);
    return result;
  }

  /** The gateway's shape check, failing with the tenant, the method and the expression. */
  private check(method: string, op: Operation, result: unknown): void {
    const problem = this.context.answerProblem?.(method, result);
    const path = op.response?.path ?? `${SETTINGS_PATH}.operations.${op.name}`;
    if (problem !== undefined)
      throw new MappingError({ tenant: this.context.tenantId, method }, path, `gave an answer that does not fit: ${problem}`);
  }

  private async call<T>(
    method: string,
    op: Operation,
    input: unknown,
    signal?: AbortSignal,
    shape?: (mapped: unknown) => T,
    check = true,
  ): Promise<T> {
    const answer = await this.send(method, op, input, signal);
    return this.answer(method, op, answer as StoreAnswer, input, shape, check);
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

  async pickupLocations(): Promise<PickupLocation[]> {
    return [];
  }

  /** Updates the store cart named by the handle, or creates one (no handle, or the store forgot it). */
  async quote(request: QuoteRequest, signal?: AbortSignal): Promise<Quote> {
    if (request.handle) {
      const updated = await this.send('quote', this.ops.quote_update, request, signal, true);
      if (updated !== 'not_found') return this.quoteFrom(this.ops.quote_update, updated, request);
    }
    const fresh = { ...request, handle: undefined };
    return this.quoteFrom(this.ops.quote_create, (await this.send('quote', this.ops.quote_create, fresh, signal)) as StoreAnswer, fresh);
  }

  private quoteFrom(op: Operation, answer: StoreAnswer, request: QuoteRequest): Promise<Quote> {
    return this.answer('quote', op, answer, request, (mapped) => {
      if (!isObject(mapped)) return mapped as Quote;
      const quote = { ...mapped } as unknown as Quote & { handle?: unknown };
      if (typeof quote.handle === 'number') quote.handle = String(quote.handle);
      // Without declared reasons, a refused code says nothing more than "refused".
      if (!this.capabilities.rejectionReasons && isObject(quote.discounts) && Array.isArray(quote.discounts.rejected)) {
        quote.discounts = { ...quote.discounts, rejected: quote.discounts.rejected.map(({ reason: _, ...rest }) => rest) };
      }
      return quote;
    });
  }

  /** The handle of a store cart holding `request`: the given one, or a new cart's. */
  private async cartFor(request: QuoteRequest, signal?: AbortSignal): Promise<string> {
    const handle = request.handle ?? (await this.quote(request, signal)).handle;
    if (!handle)
      throw new BackendError(
        `tenant ${this.context.tenantId}: the store's cart answer gave no handle (map it in operations.quote_*.response)`,
        false,
      );
    return handle;
  }

  /**
   * Runs a call on the session's store cart; when the store no longer knows the cart (404), makes
   * a new one from `quote` and runs it once more. Returns the answer and the handle it used.
   */
  private async onCart(method: string, op: Operation, quote: QuoteRequest, input: (handle: string) => unknown, signal?: AbortSignal) {
    let handle = await this.cartFor(quote, signal);
    let answer = await this.send(method, op, input(handle), signal, true);
    if (answer === 'not_found') {
      handle = await this.cartFor({ ...quote, handle: undefined }, signal);
      answer = await this.send(method, op, input(handle), signal, true);
      if (answer === 'not_found')
        throw new BackendError(`tenant ${this.context.tenantId}: ${method}: the store does not find the cart it has just made`, true);
    }
    return { answer, handle, input: input(handle) };
  }

  async checkoutUrl(request: CheckoutUrlRequest, signal?: AbortSignal): Promise<{ url: string; handle?: string }> {
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
      ...(handle !== request.handle && { handle }),
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
    return this.answer('placeOrder', this.ops.place_order, answer, input, (mapped) =>
      isObject(mapped) && typeof mapped.orderId === 'number'
        ? ({ ...mapped, orderId: String(mapped.orderId) } as PlaceOrderResult)
        : (mapped as PlaceOrderResult),
    );
  }

  findOrderByReference(reference: string, signal?: AbortSignal): Promise<{ orderId: string; permalinkUrl?: string } | null> {
    return this.call('findOrderByReference', this.ops.find_order, { reference }, signal, (mapped) => {
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

  /** Orders changed since `sinceIso`, page after page, oldest change first. */
  private async changedSince(sinceIso: string, signal?: AbortSignal): Promise<OrderChange[]> {
    let at: PagePosition | undefined = this.pages.first();
    const changes: OrderChange[] = [];
    for (let n = 0; at && n < MAX_CHANGE_PAGES; n++) {
      const input = { since: sinceIso, limit: this.maxLimit, ...at };
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
    const result = changes.map((c) => (typeof c.orderId === 'number' ? { ...c, orderId: String(c.orderId) } : c));
    this.check('ordersChangedSince', this.ops.orders_changed_since, result);
    return result.sort((a, b) => Date.parse(a.updatedAt) - Date.parse(b.updatedAt));
  }

  verifyWebhook(headers: Record<string, string | string[] | undefined>, rawBody: Buffer) {
    return this.verifier?.(headers, rawBody) ?? null;
  }

  async ping(signal?: AbortSignal): Promise<void> {
    await this.send('ping', this.ops.ping, {}, signal);
  }

  async close(): Promise<void> {
    this.client.close();
  }
}

export async function createRestAdapter(settings: RestSettings, context: RestAdapterContext): Promise<RestAdapter> {
  const adapter = new RestAdapter(settings, context);
  await adapter.defineFunctions(settings.functions ?? {});
  return adapter;
}
