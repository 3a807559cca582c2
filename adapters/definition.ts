/**
 * What a platform's folder exports: one definition. The registry (registry.ts) is the list of them;
 * a tenant file names one by `adapter.type`, and the gateway checks its settings and credentials
 * against the definition before `create` runs, so a broken tenant file fails start-up with the
 * field that is wrong.
 */
import type { Static, TObject, TSchema } from '@sinclair/typebox';
import type { Adapter, AdapterStore } from './contract.js';
import type { OrderSimulator } from './simulator.js';

export interface AdapterContext {
  /** The resolved `adapter.credentials` of the tenant file, by name (values are secrets: never log them). */
  credentials: Record<string, string>;
  /** Folder of the tenant file: relative paths in settings resolve against it. */
  baseDir: string;
  /** The tenant file, for error messages. */
  where: string;
  now: () => number;
  /** The gateway's state store: adapters keep what every replica must see there (namespaced by tenant). */
  store: AdapterStore;
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
  /** A store whose web pages (storefront, policies, images) are files the gateway serves: the demo store. */
  storefront?: StorefrontSite;
}

export interface StorefrontSite {
  /** Where its pages live (the adapter's storefront URL). */
  url: string;
  /** The folder holding them. */
  dir: string;
}

/** The credentials a tenant file gives, checked: what `create` gets, or what is missing or wrong. */
export type CredentialCheck<C> = { ok: true; value: C } | { ok: false; message: string };

export interface AdapterDefinition<S extends TSchema = TSchema, C = unknown, A extends Adapter = Adapter> {
  /** The tenant file's `adapter.type`. */
  type: string;
  /** `adapter.settings`, validated before `create` (its errors name `$.adapter.settings...`). */
  settings: S;
  /** Checks `adapter.credentials` (messages name `$.adapter.credentials...`). */
  credentials(given: Record<string, string>): CredentialCheck<C>;
  /**
   * The names `adapter.credentials` takes, each a string described by what it is: the required
   * ones are what `npm run tenant -- new` references in a new tenant file, the optional ones it
   * lists. `credentials` above stays the check. Absent: the settings name the credentials (fields
   * marked NAMES_CREDENTIAL, as the REST adapter's auth does).
   */
  credentialNames?: TObject;
  create(settings: Static<S>, credentials: C, context: AdapterContext): A | Promise<A>;
  extras?(adapter: A): AdapterExtras;
}

/** Marks a settings field whose value is the name of an entry of `adapter.credentials` (a JSON Schema keyword). */
export const NAMES_CREDENTIAL = 'namesCredential';

/** Infers the settings, credentials and adapter types of one definition. */
export const defineAdapter = <S extends TSchema, C, A extends Adapter>(definition: AdapterDefinition<S, C, A>) => definition;

/** Any credentials accepted as they are: for a platform whose credentials are all optional. */
export const anyCredentials = (given: Record<string, string>): CredentialCheck<Record<string, string>> => ({ ok: true, value: given });
