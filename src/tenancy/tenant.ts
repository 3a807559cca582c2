/**
 * A tenant at run time: its validated configuration, adapter, policies and pre-rendered
 * profile. Built once per configuration load; requests only read it.
 */
import { createHash } from 'node:crypto';
import { dirname } from 'node:path';
import type { Adapter, FinishingMode } from '../../adapters/contract.js';
import { createAdapter, type AdapterExtras, type RegisteredAdapter } from '../../adapters/registry.js';
import type { StorefrontSite } from '../../adapters/definition.js';
import { answerProblem, type CheckedMethod } from './adapter-answers.js';
import { offeredHandlers, resolveFinishing } from './finishing.js';
import { checkOrderLinks } from './order-links.js';
import { resilientAdapter, type BackendObserver } from './resilient-adapter.js';
import { BackendCircuit } from './backend-circuit.js';
import type { Profile } from '../../schemas/profile.js';
import type { AuthorizationServer } from '../identity/authorization-server.js';
import { tenantIdentity, type IdentityDeps } from '../identity/tenant-identity.js';
import { ConfigError } from '../../adapters/kit/config-error.js';
import type { LoadedTenant } from '../config/load-tenants.js';
import { withBaseUrl } from '../config/base-url.js';
import { createSecretFile, resolveSecret } from '../config/secrets.js';
import { settingsFromEnvironment } from '../config/setting-refs.js';
import { resolveEmbedded, type EmbeddedSettings } from '../embedded/settings.js';
import { resolvePolicies, type Policies, type TenantConfig } from '../config/tenant-schema.js';
import { paymentHandlerRegistry, renderBusinessProfile, type PaymentHandlerRegistry } from '../protocol/business-profile.js';
import { Keyring, loadKeyring } from '../security/keyring.js';
import { TenantSecurity } from '../security/tenant-security.js';
import { CAPABILITIES, isCapabilityName, type CapabilityName } from '../protocol/capability-registry.js';
import type { StateStore } from '../state/store.js';
import { SimulationAccess } from './simulation-access.js';

interface RenderedProfile {
  object: Profile;
  json: string;
  etag: string;
}

export interface Tenant {
  readonly id: string;
  readonly name: string;
  readonly baseUrl: string;
  readonly config: TenantConfig;
  readonly policies: Policies;
  readonly adapter: Adapter;
  /** The breaker every backend call goes through (backend-circuit.ts): its state is the backend's health at a glance. */
  readonly circuit: BackendCircuit;
  /** How its checkouts finish (finishing.ts). */
  readonly finishing: FinishingMode;
  /** Enabled capabilities with their config. */
  readonly capabilities: ReadonlyMap<CapabilityName, Record<string, unknown>>;
  readonly profile: RenderedProfile;
  /** The `proto.payment_handlers` of checkout answers: the handlers a checkout of this store can be paid with. */
  readonly checkoutPaymentHandlers: PaymentHandlerRegistry;
  /** Signing keys, signature policies and caller authentication. */
  readonly security: TenantSecurity;
  /** The order simulation API: present when the adapter offers one and the tenant file sets its secret. */
  readonly simulation?: SimulationAccess;
  /** The embedded transport, when the tenant turns it on. */
  readonly embedded?: EmbeddedSettings;
  /** The authorization server buyers link their store accounts with (src/identity). */
  readonly identity?: AuthorizationServer;
  /** The demo store's pages and images, served by the gateway (transports/pages/demo-store.ts). */
  readonly storefront?: StorefrontSite;
}

export interface TenantDeps {
  env: NodeJS.ProcessEnv;
  now: () => number;
  /** Handed to adapters that keep shared state (the demo store's orders). */
  store: StateStore;
  /** Where each tenant's backend calls are reported (metrics). */
  observeBackend?: (tenantId: string, adapterType: string) => BackendObserver;
  /** base_url of tenant files that name none (BASE_URL, or where the gateway listens). */
  baseUrl?: string;
  /** The adapters tenant files may name; default: every adapter of this build (adapters/registry.ts). */
  adapters?: readonly RegisteredAdapter[];
}

function enabledCapabilities(config: TenantConfig, where: string): Map<CapabilityName, Record<string, unknown>> {
  const enabled = new Map<CapabilityName, Record<string, unknown>>();
  for (const [name, capabilityConfig] of Object.entries(config.capabilities)) {
    if (!isCapabilityName(name)) {
      throw new ConfigError(
        `${where}: $.capabilities["${name}"] is not a capability this gateway implements (known: ${Object.keys(CAPABILITIES).join(', ')})`,
      );
    }
    enabled.set(name, capabilityConfig);
  }
  for (const name of enabled.keys()) {
    const parents = CAPABILITIES[name].extends;
    if (parents && !parents.some((p) => enabled.has(p))) {
      throw new ConfigError(`${where}: $.capabilities["${name}"] extends ${parents.join(' or ')}; enable one of them`);
    }
  }
  return enabled;
}

function renderProfile(object: Profile): RenderedProfile {
  const json = JSON.stringify(object);
  return { object, json, etag: `"${createHash('sha256').update(json).digest('base64url').slice(0, 27)}"` };
}

export async function buildTenant(read: LoadedTenant, deps: TenantDeps): Promise<Tenant> {
  const fromEnv = settingsFromEnvironment(read.config.adapter.settings, read.file, deps.env);
  const config = withBaseUrl({ ...read.config, adapter: { ...read.config.adapter, settings: fromEnv } }, deps.baseUrl, read.file);
  const loaded = { config, file: read.file };
  const { file } = loaded;
  const baseDir = dirname(file);
  const credentials = Object.fromEntries(
    Object.entries(config.adapter.credentials ?? {}).map(([name, ref]) => [
      name,
      resolveSecret(ref, `${file}: $.adapter.credentials.${name}`, baseDir, deps.env),
    ]),
  );
  // Keys first: a broken key fails start-up before any backend connection is opened.
  const keyring = await loadKeyring(config.signing, file, baseDir, deps.env);
  if (config.simulation?.create_secret) createSecretFile(config.simulation.secret, `${file}: $.simulation`, baseDir);
  const simulationSecret = config.simulation && resolveSecret(config.simulation.secret, `${file}: $.simulation.secret`, baseDir, deps.env);
  const { adapter, extras } = await createAdapter(
    config.adapter,
    {
      credentials,
      baseDir,
      where: file,
      now: deps.now,
      store: deps.store,
      tenantId: config.id,
      answerProblem: (method, answer) => answerProblem(method as CheckedMethod, answer),
    },
    deps.adapters,
  );
  try {
    return assembleTenant(loaded, adapter, {
      keyring,
      extras,
      secrets: Object.values(credentials),
      identityDeps: { store: deps.store, env: deps.env },
      store: deps.store,
      ...(simulationSecret !== undefined && { simulationSecret }),
      ...(deps.observeBackend && { observe: deps.observeBackend(config.id, config.adapter.type) }),
    });
  } catch (error) {
    await adapter.close?.(); // a tenant that fails to assemble must not leak its backend connection
    throw error;
  }
}

export interface AssemblyOptions {
  keyring?: Keyring;
  observe?: BackendObserver;
  /** What the adapter offers beyond the contract. */
  extras?: AdapterExtras;
  /** The resolved `simulation.secret` of the tenant file. */
  simulationSecret?: string;
  /** The resolved backend credentials, scrubbed from adapter errors. */
  secrets?: readonly string[];
  /** What the tenant's authorization server needs (its state store), when it links identities. */
  identityDeps?: IdentityDeps;
  /** The state store, where accepted signature nonces are remembered (every replica refuses a replay). */
  store?: StateStore;
}

function simulationAccess(
  config: TenantConfig,
  file: string,
  kind: string,
  extras: AdapterExtras,
  secret: string | undefined,
): SimulationAccess | undefined {
  if (!config.simulation) return undefined;
  if (!extras.simulator) throw new ConfigError(`${file}: $.simulation: the ${kind} adapter has no order simulation; remove the section`);
  if (secret === undefined) throw new ConfigError(`${file}: $.simulation.secret was not resolved`);
  return new SimulationAccess(extras.simulator, secret);
}

/** Everything but the backend and the signing keys is derived from the configuration; the backend gets the tenant's call policy. */
export function assembleTenant(
  loaded: LoadedTenant,
  backend: Adapter,
  { keyring = Keyring.none, observe, extras = {}, simulationSecret, secrets = [], identityDeps = {}, store }: AssemblyOptions = {},
): Tenant {
  const { config, file } = loaded;
  const baseUrl = config.base_url; // buildTenant fills it in when the file names none
  if (baseUrl === undefined) throw new ConfigError(`${file}: $.base_url is required`);
  const policies = resolvePolicies(config);
  const finishing = resolveFinishing(config, backend.kind, backend.capabilities, file);
  checkOrderLinks(backend.capabilities, backend.kind, file);
  const simulation = simulationAccess(config, file, backend.kind, extras, simulationSecret);
  const circuit = new BackendCircuit(policies.circuit);
  const adapter = resilientAdapter(backend, policies.backend, observe, secrets, circuit);
  const capabilities = enabledCapabilities(config, file);
  const identity = tenantIdentity(config, baseUrl, backend, keyring, file, capabilities, identityDeps);
  const security = new TenantSecurity(config, keyring, file, identity, store);
  const embedded = resolveEmbedded(config.embedded, file);
  const profile = renderProfile(
    renderBusinessProfile({
      baseUrl,
      capabilities,
      paymentHandlers: config.payment_handlers ?? [],
      publicKeys: keyring.publicJwks,
      supportedVersions: config.supported_versions ?? {},
      ...(embedded && { embedded }),
      a2a: config.a2a === true,
    }),
  );
  return {
    id: config.id,
    name: config.name,
    baseUrl,
    config,
    policies,
    adapter,
    circuit,
    finishing,
    capabilities,
    profile,
    checkoutPaymentHandlers: paymentHandlerRegistry(offeredHandlers(config.payment_handlers ?? [], finishing)),
    security,
    ...(simulation && { simulation }),
    ...(embedded && { embedded }),
    ...(identity && { identity }),
    ...(extras.storefront && { storefront: extras.storefront }),
  };
}
