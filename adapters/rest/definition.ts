/** A home-grown store's REST API, mapped by the tenant file (settings.ts). */
import { anyCredentials, defineAdapter } from '../definition.js';
import { createRestAdapter } from './index.js';
import { RestSettings } from './settings.js';

export const rest = defineAdapter({
  type: 'rest',
  settings: RestSettings,
  // The settings name the credentials their auth uses; createRestAdapter checks they are given.
  credentials: anyCredentials,
  create: (settings, _credentials, context) => createRestAdapter(settings, context),
});
