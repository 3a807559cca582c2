/**
 * Whether a tenant links buyer identities, decided at start-up: it lists
 * dev.proto.common.identity_linking among its capabilities, and then its store must have a login
 * source (the adapter's authenticateCustomer, or a federated OpenID Connect provider in
 * `identity_linking.federated`), a signing key and a state store. A tenant that does not list it
 * has no authorization server and does not advertise identity linking (platforms then treat its
 * buyers as guests); listing it without a login source is a configuration error naming both fixes.
 */
import type { Adapter } from '../../adapters/contract.js';
import { ConfigError } from '../../adapters/kit/config-error.js';
import type { TenantConfig } from '../config/tenant-schema.js';
import { CAPABILITY } from '../protocol/capability-registry.js';
import type { Keyring } from '../security/keyring.js';
import type { StateStore } from '../state/store.js';
import { AuthorizationServer } from './authorization-server.js';
import { FederatedLogin } from './federated-login.js';
import { OAUTH_PATH } from './provider-configuration.js';
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
  const federatedConfig = config.identity_linking?.federated;
  if (!backend.authenticateCustomer && !federatedConfig)
    throw new ConfigError(
      `${where}: the ${backend.kind} store has no customer login (authenticateCustomer) to link identities with; ` +
        'configure its OpenID Connect provider in $.identity_linking.federated, or remove the capability',
    );
  if (!store) throw new ConfigError(`${where}: identity linking keeps its grants in the state store; none was given`);
  const federated =
    federatedConfig &&
    new FederatedLogin({
      config: federatedConfig,
      tenantId: config.id,
      tenantName: config.name,
      redirectUri: `${baseUrl.replace(/\/$/, '')}${OAUTH_PATH}/federated/callback`,
      store,
      file,
      env,
    });
  const server = new AuthorizationServer({ config, baseUrl, keyring, store, file, env, ...(federated && { federated }) });
  capabilities.set(CAPABILITY.identityLinking, linkingProfileConfig(server.scopes));
  return server;
}
