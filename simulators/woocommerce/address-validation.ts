/**
 * Store API address validation, as plugins/woocommerce/src/StoreApi/Schemas/V1/AbstractAddressSchema.php
 * (validate_callback) and Routes/V1/CartUpdateCustomer.php (validate_address_params) do it:
 * - the posted address is merged over the customer's saved one first (wp_parse_args), so a field
 *   left out keeps its old value;
 * - country: a country WooCommerce knows (wc()->countries->get_countries()), else only that error;
 * - state: one of the country's states where WooCommerce lists them (ValidationUtils::validate_state,
 *   after format_state turns a state name into its code); postcode: WC_Validation::is_postcode;
 *   phone: WC_Validation::is_phone (digits, spaces and # _ - + / ( ) . only);
 * - a refusal is 400 `rest_invalid_param`, "Invalid parameter(s): shipping_address", with
 *   `params` (the messages, joined) and `details` (rest_convert_error_to_response: code, message,
 *   data, additional_errors); nothing is saved, the cart keeps its previous addresses.
 */
import type { Address } from './model.js';
import { WpError } from './wp-error.js';

/** The states WooCommerce lists for the countries the simulated store is tested with (i18n/states.php). */
const STATES: Record<string, Record<string, string>> = {
  US: Object.fromEntries(
    (
      'AL:Alabama AK:Alaska AZ:Arizona AR:Arkansas CA:California CO:Colorado CT:Connecticut DE:Delaware DC:District_Of_Columbia ' +
      'FL:Florida GA:Georgia HI:Hawaii ID:Idaho IL:Illinois IN:Indiana IA:Iowa KS:Kansas KY:Kentucky LA:Louisiana ME:Maine ' +
      'MD:Maryland MA:Massachusetts MI:Michigan MN:Minnesota MS:Mississippi MO:Missouri MT:Montana NE:Nebraska NV:Nevada ' +
      'NH:New_Hampshire NJ:New_Jersey NM:New_Mexico NY:New_York NC:North_Carolina ND:North_Dakota OH:Ohio OK:Oklahoma OR:Oregon ' +
      'PA:Pennsylvania RI:Rhode_Island SC:South_Carolina SD:South_Dakota TN:Tennessee TX:Texas UT:Utah VT:Vermont VA:Virginia ' +
      'WA:Washington WV:West_Virginia WI:Wisconsin WY:Wyoming AA:Armed_Forces_(AA) AE:Armed_Forces_(AE) AP:Armed_Forces_(AP)'
    )
      .split(' ')
      .map((pair) => {
        const [code, name] = pair.split(':') as [string, string];
        return [code, name.replace(/_/g, ' ')];
      }),
  ),
};

/** WC_Validation::is_postcode for the countries with a pattern there; others take any postcode. */
const POSTCODES: Record<string, RegExp> = {
  US: /^([0-9]{5})(-[0-9]{4})?$/,
  CA: /^([ABCEGHJKLMNPRSTVXY]\d[ABCEGHJKLMNPRSTVWXYZ])( )?(\d[ABCEGHJKLMNPRSTVWXYZ]\d)$/i,
  DE: /^([0]{1}[1-9]{1}|[1-9]{1}[0-9]{1})[0-9]{3}$/,
  GB: /^([A-Z]{1,2}[0-9][A-Z0-9]? ?[0-9][A-Z]{2}|GIR 0AA)$/i,
};

const regions = new Intl.DisplayNames(['en'], { type: 'region' });
const isCountry = (code: string) => /^[A-Z]{2}$/.test(code) && regions.of(code) !== code;

/** ValidationUtils::format_state: a state's name becomes its code. */
function formatState(state: string, country: string): string {
  const states = STATES[country];
  if (!states || states[state.toUpperCase()]) return states ? state.toUpperCase() : state;
  const byName = Object.entries(states).find(([, name]) => name.toLowerCase() === state.toLowerCase());
  return byName ? byName[0] : state;
}

interface FieldError {
  code: string;
  message: string;
}

/** validate_callback of one address: its errors, in WooCommerce's order. */
export function addressErrors(address: Address): FieldError[] {
  if (address.country && !isCountry(address.country)) {
    return [{ code: 'invalid_country', message: 'Invalid country code provided. Must be one of: the store’s countries' }];
  }
  const errors: FieldError[] = [];
  const states = STATES[address.country];
  if (address.state && states && !states[address.state]) {
    errors.push({
      code: 'invalid_state',
      message: `The provided state (${address.state}) is not valid. Must be one of: ${Object.keys(states).join(', ')}`,
    });
  }
  const postcode = POSTCODES[address.country];
  if (address.postcode && postcode && !postcode.test(address.postcode)) {
    errors.push({ code: 'invalid_postcode', message: 'The provided postcode / ZIP is not valid' });
  }
  if (address.phone && address.phone.replace(/[\s#0-9_\-+/().]/g, '').trim().length > 0) {
    errors.push({ code: 'invalid_phone', message: 'The provided phone number is not valid' });
  }
  return errors;
}

/** The address as sanitize_callback leaves it: country upper-cased, state formatted, postcode trimmed. */
export function sanitizeAddress<T extends Address>(address: T): T {
  const country = address.country.toUpperCase();
  return { ...address, country, state: formatState(address.state, country), postcode: address.postcode.trim().toUpperCase() };
}

/** validate_address_params: one 400 for every posted address that fails. */
export function validatePosted(posted: Array<{ param: 'billing_address' | 'shipping_address'; address: Address }>): void {
  const params: Record<string, string> = {};
  const details: Record<string, unknown> = {};
  for (const { param, address } of posted) {
    const [first, ...more] = addressErrors(address);
    if (!first) continue;
    params[param] = [first, ...more].map((e) => e.message).join(' ');
    details[param] = {
      code: first.code,
      message: first.message,
      data: null,
      ...(more.length > 0 && { additional_errors: more.map((e) => ({ ...e, data: null })) }),
    };
  }
  if (Object.keys(params).length === 0) return;
  throw new WpError(400, 'rest_invalid_param', `Invalid parameter(s): ${Object.keys(params).join(', ')}`, { params, details });
}
