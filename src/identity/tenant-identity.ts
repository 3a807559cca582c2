/**
 * Whether a tenant links buyer identities, decided at start-up: it lists
 * dev.proto.common.identity_linking among its capabilities, and then its store must have a login
 * source (the adapter's authenticateCustomer), a signing key and a state store. A tenant that does
 * not list it has no authorization server and does not advertise identity linking.
 */
import type { Adapter } from '../../adapters/contract.js';
import { ConfigError } from '../../adapters/kit/config-error.js';
import type { TenantConfig } from '../config/tenant-schema.js';
import { CAPABILITY } from '../protocol/capability-registry.js';
import type { Keyring } from '../security/keyring.js';
import type { StateStore } from '../state/store.js';
import { AuthorizationServer } from './authorization-server.js';
import { linkingProfileConfig } from './scopes.js';

export interface IdentityDeps {
  store?: StateStore;
  env?: NodeJS.ProcessEnv;
}

export function tenantIdentity(
  config: TenantConfig,
  baseUrl: string,
  backend: Adapter,
  keyring: Keyring,
  file: string,
  capabilities: Map<string, Record<string, unknown>>,
  { store, env = process.env }: IdentityDeps,
): AuthorizationServer | undefined {
  const where = `${file}: $.capabilities["${CAPABILITY.identityLinking}"]`;
  if (!capabilities.has(CAPABILITY.identityLinking)) {
    if (config.identity_linking)
      throw new ConfigError(`${file}: $.identity_linking is set but the capability ${CAPABILITY.identityLinking} is not enabled`);
    return undefined;
  }
  if (!backend.authenticateCustomer)
    throw new ConfigError(`${where}: the ${backend.kind} store has no customer login (authenticateCustomer) to link identities with`);
  if (!store) throw new ConfigError(`${where}: identity linking keeps its grants in the state store; none was given`);
  const server = new AuthorizationServer({ config, baseUrl, keyring, store, file, env });
  capabilities.set(CAPABILITY.identityLinking, linkingProfileConfig(server.scopes));
  return server;
}
