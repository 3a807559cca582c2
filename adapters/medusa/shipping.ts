/**
 * Shipping on a Medusa cart, by shipping profile. Every shipping option serves one profile, and
 * `GET /store/shipping-options?cart_id=` lists every option that reaches the address whatever the
 * cart holds (core-flows list-shipping-options-for-cart); completion needs one shipping method per
 * profile of the cart's shipped items (core-flows validate-shipping), and adding a method replaces
 * the cart's method of the same profile only (add-shipping-method-to-cart). So the lines are
 * grouped by their product's profile, each group offered its profile's options and each selection
 * set. The Store API does not say a product's profile: it is read from the Admin API
 * (`GET /admin/products?fields=id,shipping_profile.id`) and kept a while.
 *
 * A platform that takes one group per method gets one group whose options are the combinations
 * of one option per profile (`option+option`, priced as the sum), cheapest first.
 */
import { LRUCache } from 'lru-cache';
import type { FulfillmentGroupQuote, FulfillmentOptionQuote } from '../contract.js';
import { list, type MedusaClient } from './client.js';
import { toMinor } from './money.js';
import type { MedusaCart, MedusaShippingOption } from './shapes.js';

/** Shipping options per cart content and address, for this long: a merchant's price change shows within it. */
const OPTIONS_TTL_MS = 60_000;
/** Product -> shipping profile, for this long: a product moved to another profile is grouped anew within it. */
const PROFILES_TTL_MS = 10 * 60_000;
/** The key of lines whose product has no profile (Medusa then cannot ship them: no option serves them). */
const NO_PROFILE = 'none';
/** A combined option id: one option id per profile. */
const JOIN = '+';

/** An option of a group, with the Medusa options that selecting it sets (one, or one per profile when combined). */
export interface PlannedOption extends FulfillmentOptionQuote {
  optionIds: string[];
}

export interface PlannedGroup extends Omit<FulfillmentGroupQuote, 'options'> {
  options: PlannedOption[];
}

/** A shipped line of the cart: the gateway's line id and its Medusa product. */
export interface ShippedLine {
  lineId: string;
  productId: string;
}

export class MedusaShipping {
  private readonly options = new LRUCache<string, MedusaShippingOption[]>({ max: 5_000, ttl: OPTIONS_TTL_MS });
  private readonly profiles = new LRUCache<string, string>({ max: 10_000, ttl: PROFILES_TTL_MS });

  constructor(
    private readonly client: MedusaClient,
    private readonly currency: string,
  ) {}

  /**
   * The cart's priced shipping options. Asked of Medusa again only when what they depend on
   * changed (the cart's items, address and region). An option without a price (a `calculated`
   * one before POST /store/shipping-options/{id}/calculate) or without the stock to ship is left out.
   */
  async offered(cart: MedusaCart, signal?: AbortSignal): Promise<MedusaShippingOption[]> {
    const key = JSON.stringify([cart.id, cart.region_id, (cart.items ?? []).map((i) => [i.variant_id, i.quantity]), cart.shipping_address]);
    const known = this.options.get(key);
    if (known) return known;
    const answer = await this.client.call('store', '/store/shipping-options', 'shipping options', { query: { cart_id: cart.id }, signal });
    const options = list<MedusaShippingOption>(answer, 'shipping_options', 'shipping options').filter(
      (o) => o.insufficient_inventory !== true && (o.amount ?? o.calculated_price?.calculated_amount) !== undefined,
    );
    this.options.set(key, options);
    return options;
  }

  /** Each product's shipping profile (NO_PROFILE: none), from the Admin API for those not known yet. */
  async profilesOf(productIds: string[], signal?: AbortSignal): Promise<Map<string, string>> {
    const wanted = [...new Set(productIds)];
    const missing = wanted.filter((id) => !this.profiles.has(id));
    if (missing.length > 0) {
      const answer = await this.client.call('admin', '/admin/products', 'product shipping profiles', {
        query: { id: missing, fields: 'id,shipping_profile.id', limit: missing.length },
        signal,
      });
      const rows = list<{ id: string; shipping_profile?: { id?: string } | null }>(answer, 'products', 'product shipping profiles');
      for (const id of missing) this.profiles.set(id, rows.find((p) => p.id === id)?.shipping_profile?.id ?? NO_PROFILE);
    }
    return new Map(wanted.map((id) => [id, this.profiles.get(id) ?? NO_PROFILE]));
  }

  /**
   * The groups of `lines`: one per profile, each with its profile's options; when the platform
   * takes one group per method and there are several profiles, one group of combined options.
   */
  plan(lines: ShippedLine[], profiles: Map<string, string>, offered: MedusaShippingOption[], oneGroup: boolean): PlannedGroup[] {
    const byProfile = new Map<string, string[]>();
    for (const line of lines) {
      const profile = profiles.get(line.productId) ?? NO_PROFILE;
      byProfile.set(profile, [...(byProfile.get(profile) ?? []), line.lineId]);
    }
    const groups = [...byProfile].map(([profile, lineIds]) => ({
      key: profile,
      lineIds,
      options: offered
        .filter((o) => profile !== NO_PROFILE && o.shipping_profile_id === profile)
        .map((o) => this.optionOf(o))
        .sort((a, b) => a.amount - b.amount),
    }));
    return oneGroup && groups.length > 1 ? [combined(groups)] : groups;
  }

  private optionOf(option: MedusaShippingOption): PlannedOption {
    return {
      id: option.id,
      title: option.name,
      ...(option.type?.description && { description: option.type.description }),
      amount: toMinor(option.amount ?? option.calculated_price?.calculated_amount, this.currency),
      optionIds: [option.id],
    };
  }
}

/** One group for several profiles: every combination of one option per profile, cheapest first. */
function combined(groups: PlannedGroup[]): PlannedGroup {
  let options: PlannedOption[] = [{ id: '', title: '', amount: 0, optionIds: [] }];
  for (const group of groups)
    options = options.flatMap((sofar) =>
      group.options.map((o) => ({
        id: sofar.id ? `${sofar.id}${JOIN}${o.id}` : o.id,
        title: sofar.title ? `${sofar.title} + ${o.title}` : o.title,
        amount: sofar.amount + o.amount,
        optionIds: [...sofar.optionIds, o.id],
      })),
    );
  return {
    key: groups
      .map((g) => g.key)
      .sort()
      .join(JOIN),
    lineIds: groups.flatMap((g) => g.lineIds),
    options: options.sort((a, b) => a.amount - b.amount),
  };
}

/** The Medusa options a selection sets that the cart does not have yet (adding one replaces its profile's method). */
export function optionsToSet(cart: MedusaCart, groups: PlannedGroup[], selected: Record<string, string> | undefined): string[] {
  const current = new Set((cart.shipping_methods ?? []).map((m) => m.shipping_option_id));
  return groups.flatMap((group) => {
    const option = group.options.find((o) => o.id === selected?.[group.key]);
    return (option?.optionIds ?? []).filter((id) => !current.has(id));
  });
}

/** The groups as quoted: what the cart now holds decides each group's selected option. */
export function quotedGroups(cart: MedusaCart, groups: PlannedGroup[], hasAddress: boolean): FulfillmentGroupQuote[] {
  const current = new Set((cart.shipping_methods ?? []).map((m) => m.shipping_option_id));
  return groups.map((group) => {
    const chosen = group.options.find((o) => o.optionIds.every((id) => current.has(id)));
    return {
      key: group.key,
      lineIds: group.lineIds,
      options: group.options.map(({ optionIds: _, ...option }) => option),
      ...(hasAddress && group.options.length === 0 && { unavailableReason: 'The store does not ship these items to this address.' }),
      ...(chosen && { selectedOptionId: chosen.id }),
    };
  });
}

/** The group key of the group whose option set `optionId` (shipping discounts are allocated to it). */
export function groupOfOption(groups: PlannedGroup[], optionId: string | null | undefined): string | undefined {
  return groups.find((g) => g.options.some((o) => optionId && o.optionIds.includes(optionId)))?.key;
}

/** Per shipping method of a request (its methodId), its groups. */
export type ShippingPlans = Map<string, PlannedGroup[]>;
