/**
 * The checkout block's Local Pickup, as the `pickup_location` shipping method and its controller
 * run it (src/Shipping/PickupLocation.php, src/Shipping/ShippingController.php):
 * - a method outside shipping zones: every package gets one rate per enabled location, after the
 *   zone's own rates, `pickup_location:<index>` labelled "<title> (<location name>)", the method's
 *   cost, with meta `pickup_location` (the name), `pickup_address` (the formatted address, '' when
 *   incomplete) and `pickup_details` (PickupLocation::calculate_shipping);
 * - while it is on, shipping is calculated before any address is entered
 *   (override_cost_requires_address_option): the package goes to the customer's default location,
 *   the store's base;
 * - when a pickup rate is chosen, taxes are those of the location's address, not the buyer's
 *   (filter_taxable_address, `woocommerce_apply_base_tax_for_local_pickup` true);
 * - the order's shipping line is the rate: method_id `pickup_location`, instance_id 0, its meta.
 */
import type { Address, PickupLocation } from './model.js';
import type { PricedRate } from './pricing.js';
import type { WooStore } from './store.js';

export const pickupEnabled = (store: WooStore): boolean =>
  store.settings.localPickup.enabled && store.settings.localPickup.locations.some((l) => l.enabled);

/** The store's base location (woocommerce_default_country "US:IL") as a destination. */
export function baseAddress(store: WooStore): Pick<Address, 'country' | 'state' | 'postcode'> {
  const [country = '', state = ''] = store.settings.baseLocation.split(':');
  return { country, state, postcode: '' };
}

/**
 * WC_Countries::get_formatted_address( $address, ', ' ) for the US layout ("{address_1}\n{city},
 * {state_code} {postcode}\n{country}"): the country is left out when it is the store's own.
 */
function formattedAddress(store: WooStore, a: PickupLocation['address']): string {
  const base = store.settings.baseLocation.split(':')[0];
  const country = a.country === base ? '' : (new Intl.DisplayNames(['en'], { type: 'region' }).of(a.country) ?? a.country);
  return [a.address_1, `${a.city}, ${a.state} ${a.postcode}`, country].filter(Boolean).join(', ');
}

/** PickupLocation::calculate_shipping: one rate per enabled location (its taxes are the caller's). */
export function pickupRates(store: WooStore): Array<Omit<PricedRate, 'taxes'>> {
  const pickup = store.settings.localPickup;
  if (!pickupEnabled(store)) return [];
  return pickup.locations.flatMap((location, index) => {
    if (!location.enabled) return [];
    const a = location.address;
    const complete = Boolean(a.country && a.city && a.postcode && a.state);
    return [
      {
        rateId: `pickup_location:${index}`,
        instance: {
          instanceId: 0,
          methodId: 'pickup_location' as const,
          title: `${pickup.title} (${location.name})`,
          cost: pickup.cost,
          requires: '' as const,
          minAmount: 0,
          description: '',
          deliveryTime: '',
          excludedClasses: [],
        },
        cost: pickup.cost,
        meta: [
          { key: 'pickup_location', value: location.name },
          {
            key: 'pickup_address',
            value: complete ? formattedAddress(store, a) : '',
          },
          { key: 'pickup_details', value: location.details },
        ],
      },
    ];
  });
}

/** ShippingController::filter_taxable_address: the chosen location's address, when the first package's rate is a pickup. */
export function pickupTaxAddress(
  store: WooStore,
  chosenRateId: string | undefined,
): Pick<Address, 'country' | 'state' | 'postcode'> | null {
  const [method, index] = (chosenRateId ?? '').split(':');
  if (method !== 'pickup_location') return null;
  const location = store.settings.localPickup.locations[Number(index)];
  if (!location?.address.country) return null;
  return { country: location.address.country, state: location.address.state, postcode: location.address.postcode };
}
