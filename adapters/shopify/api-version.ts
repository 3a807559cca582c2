/**
 * Whether Shopify still serves the tenant's `api_version`, from the Admin API's own list
 * (`publicApiVersions`: supported stable versions, the release candidate, unstable). A retired
 * version is not in it, and Shopify answers its calls with the oldest supported version instead
 * ("falls forward", https://shopify.dev/docs/api/usage/versioning): nothing fails, the answers
 * just change shape, so only this check tells.
 */
import type { ApiVersionStatus } from '../contract.js';
import type { ShopifyClient } from './client.js';
import * as Q from './documents.js';
import { DEFAULT_API_VERSION } from './settings.js';

interface Versions {
  publicApiVersions: Array<{ handle: string; supported: boolean }>;
}

export async function apiVersionStatus(client: ShopifyClient, version: string, signal?: AbortSignal): Promise<ApiVersionStatus> {
  const { publicApiVersions: versions } = await client.admin<Versions>(Q.API_VERSIONS, {}, signal);
  const stable = versions.filter((v) => v.supported).map((v) => v.handle);
  const listed = versions.find((v) => v.handle === version);
  const tested = version === DEFAULT_API_VERSION ? '' : `; the adapter is tested against ${DEFAULT_API_VERSION}`;
  if (listed?.supported) return { version, supported: true, detail: `Shopify supports ${version}${tested}` };
  if (listed)
    return {
      version,
      supported: false,
      detail: `${version} is Shopify's release candidate or unstable version, not a stable one; set api_version to ${DEFAULT_API_VERSION}`,
    };
  const oldest = [...stable].sort()[0];
  return {
    version,
    supported: false,
    detail:
      `Shopify no longer serves ${version}` +
      (oldest ? `: its calls are answered by ${oldest} instead` : '') +
      `; set api_version to ${DEFAULT_API_VERSION}`,
  };
}
