/**
 * Adapter factories by tenant `adapter.type`, each validating its own settings so a broken
 * tenant file fails start-up with the field that is wrong.
 */
import { resolve } from 'node:path';
import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { ConfigError } from '../src/config/config-error.js';
import type { TenantConfig } from '../src/config/tenant-schema.js';
import type { StateStore } from '../src/state/store.js';
import { compile } from '../src/validation/validator.js';
import type { Adapter } from './contract.js';
import { createMedusaAdapter, CREDENTIALS as MEDUSA_CREDENTIALS, MedusaSettings } from './medusa/index.js';
import { createMemoryAdapter } from './memory/index.js';
import { createRestAdapter } from './rest/index.js';
import { RestSettings } from './rest/settings.js';
import { createShopifyAdapter } from './shopify/index.js';
import { checkCredentials, ShopifySettings, withDefaults } from './shopify/settings.js';
import { CREDENTIALS, createWooCommerceAdapter, WooCommerceSettings } from './woocommerce/index.js';
import type { OrderSimulator } from './simulator.js';

export interface AdapterContext {
  credentials: Record<string, string>;
  /** Folder of the tenant file: relative paths in settings resolve against it. */
  baseDir: string;
  /** The tenant file, for error messages. */
  where: string;
  now: () => number;
  /** The gateway's state store: adapters keep what every replica must see there (namespaced by tenant). */
  store: StateStore;
  tenantId: string;
  /** The gateway's check of an answer's shape (what is wrong, or undefined), for adapters that map answers. */
  answerProblem?: (method: string, answer: unknown) => string | undefined;
}

/**
 * What an adapter offers beyond the contract. The tenant keeps these next to its adapter, which
 * it only reaches through the contract (the resilient wrapper).
 */
export interface AdapterExtras {
  simulator?: OrderSimulator;
}

export interface BuiltAdapter {
  adapter: Adapter;
  extras: AdapterExtras;
}

interface AdapterFactory<S extends TSchema, A extends Adapter = Adapter> {
  settings: S;
  create(settings: Static<S>, context: AdapterContext): Promise<A>;
  extras?(adapter: A): AdapterExtras;
}

const define = <S extends TSchema, A extends Adapter>(factory: AdapterFactory<S, A>) => factory;

const factories: Record<string, AdapterFactory<TSchema>> = {
  memory: define({
    settings: Type.Object(
      {
        data_dir: Type.String({ minLength: 1 }),
        storefront_url: Type.String({ format: 'uri' }),
        /** How long placed orders are kept in the state store. */
        order_retention_days: Type.Optional(Type.Integer({ minimum: 1, maximum: 3650 })),
      },
      { additionalProperties: false },
    ),
    create: (settings, context) =>
      createMemoryAdapter({
        dataDir: resolve(context.baseDir, settings.data_dir),
        storefrontUrl: settings.storefront_url.replace(/\/+$/, ''),
        now: context.now,
        store: context.store,
        tenantId: context.tenantId,
        ...(settings.order_retention_days !== undefined && { orderRetentionMs: settings.order_retention_days * 86_400_000 }),
        // Optional credential: signs and verifies the demo store's own webhooks (X-Demo-Webhook-Signature).
        ...(context.credentials.webhook_secret !== undefined && { webhookSecret: context.credentials.webhook_secret }),
      }),
    extras: (adapter) => ({ simulator: adapter }),
  }),
  rest: define({
    settings: RestSettings,
    create: (settings, context) => createRestAdapter(settings, context),
  }),
  shopify: define({
    settings: ShopifySettings,
    create: async (settings, context) => {
      const credentials = checkCredentials(context.credentials);
      if (!credentials.ok) throw new ConfigError(`${context.where}: ${credentials.message}`);
      return createShopifyAdapter(withDefaults(settings), credentials.value);
    },
  }),
  woocommerce: define({
    settings: WooCommerceSettings,
    create: (settings, context) => {
      const consumerKey = context.credentials[CREDENTIALS.key];
      const consumerSecret = context.credentials[CREDENTIALS.secret];
      if (!consumerKey || !consumerSecret) {
        const needed = `${CREDENTIALS.key} and ${CREDENTIALS.secret}`;
        throw new ConfigError(`${context.where}: $.adapter.credentials needs ${needed} ({env} or {file} references to the REST API key)`);
      }
      const webhookSecret = context.credentials[CREDENTIALS.webhook];
      return createWooCommerceAdapter({
        settings,
        consumerKey,
        consumerSecret,
        ...(webhookSecret && { webhookSecret }),
        store: context.store,
        tenantId: context.tenantId,
        now: context.now,
      });
    },
  }),
  medusa: define({
    settings: MedusaSettings,
    create: (settings, context) => {
      const publishableKey = context.credentials[MEDUSA_CREDENTIALS.publishable];
      const secretKey = context.credentials[MEDUSA_CREDENTIALS.secret];
      if (!publishableKey || !secretKey) {
        const needed = `${MEDUSA_CREDENTIALS.publishable} and ${MEDUSA_CREDENTIALS.secret}`;
        throw new ConfigError(`${context.where}: $.adapter.credentials needs ${needed} ({env} or {file} references to Medusa API keys)`);
      }
      return createMedusaAdapter({ settings, publishableKey, secretKey, store: context.store, tenantId: context.tenantId });
    },
  }),
};

export async function createAdapter(config: TenantConfig['adapter'], context: AdapterContext): Promise<BuiltAdapter> {
  const factory = factories[config.type];
  if (!factory) throw new ConfigError(`${context.where}: $.adapter.type "${config.type}" has no adapter in this build`);
  const checked = compile<Static<TSchema>>(factory.settings)(config.settings);
  if (!checked.ok) throw new ConfigError(`${context.where}: ${checked.message.replace(/^\$/, '$.adapter.settings')}`);
  const adapter = await factory.create(checked.value, context);
  return { adapter, extras: factory.extras?.(adapter) ?? {} };
}
