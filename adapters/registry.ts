/**
 * The adapters this build has: one definition per platform folder. Adding a platform is its folder
 * and one line here; the tenant schema's `adapter.type` is derived from this list.
 */
import type { Static, TSchema } from '@sinclair/typebox';
import { compile } from '../schemas/validator.js';
import type { Adapter } from './contract.js';
import type { AdapterContext, AdapterDefinition, AdapterExtras } from './definition.js';
import { ConfigError } from './kit/config-error.js';
import { medusa } from './medusa/definition.js';
import { memory } from './memory/definition.js';
import { rest } from './rest/definition.js';
import { shopify } from './shopify/definition.js';
import { woocommerce } from './woocommerce/definition.js';

export type { AdapterContext, AdapterExtras } from './definition.js';

/** A definition in the list: its own settings and credential types are checked where it is defined. */
export type RegisteredAdapter = AdapterDefinition<TSchema, any, Adapter>; // eslint-disable-line @typescript-eslint/no-explicit-any

export const ADAPTERS: readonly RegisteredAdapter[] = [memory, rest, shopify, woocommerce, medusa];

/** The `adapter.type`s a tenant file may name. */
export const ADAPTER_TYPES = ADAPTERS.map((definition) => definition.type);

/** The `adapter` member of a tenant file. */
export interface AdapterConfig {
  type: string;
  settings: Record<string, unknown>;
}

export interface BuiltAdapter {
  adapter: Adapter;
  extras: AdapterExtras;
}

const settingsValidators = new WeakMap<RegisteredAdapter, ReturnType<typeof compile<Static<TSchema>>>>();

export async function createAdapter(
  config: AdapterConfig,
  context: AdapterContext,
  adapters: readonly RegisteredAdapter[] = ADAPTERS,
): Promise<BuiltAdapter> {
  const definition = adapters.find((d) => d.type === config.type);
  if (!definition) throw new ConfigError(`${context.where}: $.adapter.type "${config.type}" has no adapter in this build`);
  let validate = settingsValidators.get(definition);
  if (!validate) settingsValidators.set(definition, (validate = compile<Static<TSchema>>(definition.settings)));
  const settings = validate(config.settings);
  if (!settings.ok) throw new ConfigError(`${context.where}: ${settings.message.replace(/^\$/, '$.adapter.settings')}`);
  const credentials = definition.credentials(context.credentials);
  if (!credentials.ok) throw new ConfigError(`${context.where}: ${credentials.message}`);
  const adapter = await definition.create(settings.value, credentials.value, context);
  return { adapter, extras: definition.extras?.(adapter) ?? {} };
}
