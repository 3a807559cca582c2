/**
 * `npm run tenant -- check`: each tenant against its store, read-only, one verdict per check. The
 * tenant is built exactly as start-up builds it (src/tenancy/tenant.ts: the file, its secrets, its
 * keys, its adapter, its finishing mode), so "the file validates" means the gateway would start
 * with it; the store is then asked through the same resilient adapter requests use (deadlines,
 * retries, credentials scrubbed from errors), and through the adapter's own read-only `setup`
 * (adapters/contract/setup.ts) for its API version and webhooks. What an adapter cannot tell is
 * "skipped" with the reason, never a pass.
 */
import type { Adapter, WebhookSetup } from '../adapters/contract.js';
import { ADAPTERS, type RegisteredAdapter } from '../adapters/registry.js';
import { ConfigError } from '../adapters/kit/config-error.js';
import { shownPath, type LoadedTenant } from '../src/config/load-tenants.js';
import { buildTenant, type Tenant } from '../src/tenancy/tenant.js';
import { MemoryStore } from '../src/state/memory-store.js';
import { webhookStep } from './tenant-platforms.js';

type Status = 'ok' | 'failed' | 'skipped';

export interface Verdict {
  check: string;
  status: Status;
  detail: string;
}

/** Every check of a tenant, in the order they run. */
const CHECKS = ['file', 'signing key', 'credentials', 'api version', 'webhooks', 'catalog'] as const;
const STORE_CHECKS = CHECKS.slice(2);

const skipped = (checks: readonly string[], why: string): Verdict[] => checks.map((check) => ({ check, status: 'skipped', detail: why }));

/** The verdicts of a file the gateway would refuse: that, and every other check skipped. */
export const fileRefused = (message: string): Verdict[] => [
  { check: 'file', status: 'failed', detail: message },
  ...skipped(CHECKS.slice(1), 'the file does not validate'),
];

export interface CheckContext {
  env: NodeJS.ProcessEnv;
  /** base_url of files that name none: BASE_URL, else where the gateway listens (as start-up derives it). */
  baseUrl: string;
  /** Deadline of each store check. */
  timeoutMs: number;
  /** Every resolved credential seen so far: scrubbed from whatever is printed. */
  secrets: Set<string>;
  /** Called while a check is still waiting for the store, with the seconds it has waited. */
  progress?: (tenantId: string, check: string, seconds: number) => void;
}

/** A tenant as start-up builds it, and the adapter inside it (its `setup` is not part of the request path). */
export interface OpenedTenant {
  tenant: Tenant;
  adapter: Adapter;
}

/**
 * The registry's definitions, each also handing over the credentials it is given (before it starts:
 * a store's refusal while the adapter starts may quote one) and the adapter it creates.
 */
function capturing(secrets: Set<string>, seen: (adapter: Adapter) => void): RegisteredAdapter[] {
  return ADAPTERS.map((definition) => ({
    ...definition,
    create: async (settings, credentials, context) => {
      for (const secret of Object.values(context.credentials)) secrets.add(secret);
      const adapter = await definition.create(settings, credentials, context);
      seen(adapter);
      return adapter;
    },
  }));
}

/** Throws a ConfigError for a file the gateway would refuse, anything else for a store that failed while the adapter started. */
export async function openTenant(loaded: LoadedTenant, context: Pick<CheckContext, 'env' | 'baseUrl' | 'secrets'>): Promise<OpenedTenant> {
  let adapter: Adapter | undefined;
  const tenant = await buildTenant(loaded, {
    env: context.env,
    now: Date.now,
    store: new MemoryStore(),
    baseUrl: context.baseUrl,
    adapters: capturing(context.secrets, (created) => (adapter = created)),
  });
  return { tenant, adapter: adapter! };
}

/** What a failed store call says, or that it did not answer in time. */
export function reason(error: unknown, signal?: AbortSignal, timeoutMs?: number): string {
  if (signal?.aborted && timeoutMs !== undefined) return `no answer within ${Math.round(timeoutMs / 1000)} s`;
  return error instanceof Error ? error.message : String(error);
}

/** Runs `run`, reporting every few seconds while it has not answered. */
export async function withProgress<T>(
  run: () => Promise<T>,
  report: (seconds: number) => void,
  firstMs = 1000,
  everyMs = 5000,
): Promise<T> {
  const started = Date.now();
  let timer: NodeJS.Timeout | undefined;
  const tick = () => {
    report(Math.round((Date.now() - started) / 1000));
    timer = setTimeout(tick, everyMs);
  };
  timer = setTimeout(tick, firstMs);
  try {
    return await run();
  } finally {
    clearTimeout(timer);
  }
}

/** Whether every topic the gateway needs is delivered, actively, to this gateway's webhook URL. */
export function webhookVerdict(setup: WebhookSetup, url: string, fix: string | undefined): Verdict {
  const here = setup.registered.filter((r) => r.url === url);
  const missing = setup.needed.filter((topic) => !here.some((r) => r.topic === topic));
  const inactive = setup.needed.filter((topic) => !missing.includes(topic) && !here.some((r) => r.topic === topic && r.active));
  if (missing.length === 0 && inactive.length === 0)
    return { check: 'webhooks', status: 'ok', detail: `${setup.needed.length} topic(s) delivered to ${url}` };
  const elsewhere = [...new Set(setup.registered.filter((r) => missing.includes(r.topic)).map((r) => r.url))];
  const parts = [
    ...(missing.length ? [`not registered for ${url}: ${missing.join(', ')}`] : []),
    ...(elsewhere.length ? [`the store sends them to ${elsewhere.join(', ')}`] : []),
    ...(inactive.length ? [`disabled by the store: ${inactive.join(', ')}`] : []),
    ...(fix ? [`fix: ${fix}`] : []),
  ];
  return { check: 'webhooks', status: 'failed', detail: parts.join('; ') };
}

function signingVerdict(config: Tenant['config']): Verdict {
  const check = 'signing key';
  const { signing } = config;
  if (signing?.keys?.length)
    return {
      check,
      status: 'ok',
      detail: `signs with ${signing.active_kid}${signing.keys.length > 1 ? `, ${signing.keys.length - 1} more published` : ''}`,
    };
  const generate = 'npm run keys -- generate, then signing.keys and active_kid';
  if (signing?.ephemeral_key)
    return {
      check,
      status: 'failed',
      detail: `ephemeral: a throw-away key per process, so every replica and restart publishes another (${generate})`,
    };
  return { check, status: 'failed', detail: `none: answers and order webhooks go out unsigned (${generate})` };
}

type Step = (signal: AbortSignal) => Promise<string | Verdict>;

/** The store checks, in order; a string instead of a step: the adapter cannot tell, and why. */
function storeSteps(opened: OpenedTenant): Array<[string, Step | string]> {
  const { tenant, adapter } = opened;
  const { setup } = adapter;
  const webhookUrl = `${tenant.baseUrl}/webhooks/backend`;
  const cannot = (what: string) => `the ${adapter.kind} adapter cannot read ${what}`;
  return [
    [
      'credentials',
      async (signal) => {
        await tenant.adapter.ping(signal);
        return Object.keys(tenant.config.adapter.credentials ?? {}).length > 0
          ? 'the store answers with them'
          : 'the store answers (it needs none)';
      },
    ],
    [
      'api version',
      setup?.apiVersion
        ? async (signal) => {
            const status = await setup.apiVersion!(signal);
            return { check: 'api version', status: status.supported ? 'ok' : 'failed', detail: status.detail };
          }
        : cannot("the store's API version"),
    ],
    [
      'webhooks',
      setup?.webhooks
        ? async (signal) => webhookVerdict(await setup.webhooks!(signal), webhookUrl, webhookStep(adapter.kind, tenant.id, webhookUrl))
        : cannot("the store's webhooks"),
    ],
    [
      'catalog',
      async (signal) => {
        const page = await tenant.adapter.search({ limit: 1 }, signal);
        return page.products.length > 0 ? 'a search answers products' : 'a search answers, with no product (an empty catalog?)';
      },
    ],
  ];
}

async function runStep(name: string, step: Step, id: string, context: CheckContext): Promise<Verdict> {
  const signal = AbortSignal.timeout(context.timeoutMs);
  const started = performance.now();
  try {
    const answer = await withProgress(
      () => step(signal),
      (seconds) => context.progress?.(id, name, seconds),
    );
    const ms = Math.round(performance.now() - started);
    return typeof answer === 'string' ? { check: name, status: 'ok', detail: `${answer} (${ms} ms)` } : answer;
  } catch (error) {
    return { check: name, status: 'failed', detail: reason(error, signal, context.timeoutMs) };
  }
}

/** Every check of one tenant file, in order; a check that cannot run after an earlier failure is skipped, saying which. */
export async function checkTenant(loaded: LoadedTenant, context: CheckContext): Promise<Verdict[]> {
  const { config, file } = loaded;
  let opened: OpenedTenant;
  try {
    opened = await withProgress(
      () => openTenant(loaded, context),
      (seconds) => context.progress?.(config.id, 'file', seconds),
    );
  } catch (error) {
    if (error instanceof ConfigError) return fileRefused(error.message);
    return [
      {
        check: 'file',
        status: 'ok',
        detail: `${shownPath(file)} validates; the ${config.adapter.type} adapter reads the store as it starts, and could not`,
      },
      signingVerdict(config),
      { check: 'credentials', status: 'failed', detail: reason(error) },
      ...skipped(STORE_CHECKS.slice(1), 'the credentials check failed'),
    ];
  }
  try {
    const verdicts: Verdict[] = [
      { check: 'file', status: 'ok', detail: `${shownPath(file)} validates; checkouts finish by ${opened.tenant.finishing}` },
      signingVerdict(opened.tenant.config),
    ];
    for (const [name, step] of storeSteps(opened)) {
      if (verdicts.some((v) => v.check === 'credentials' && v.status === 'failed'))
        verdicts.push(...skipped([name], 'the credentials check failed'));
      else if (typeof step === 'string') verdicts.push({ check: name, status: 'skipped', detail: step });
      else verdicts.push(await runStep(name, step, config.id, context));
    }
    return verdicts;
  } finally {
    await opened.tenant.adapter.close?.();
  }
}
