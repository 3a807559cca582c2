/**
 * An extension as the gateway serves it (spec part 1 §2.1: a capability that adds members to the
 * objects of the capabilities it extends): the members it adds to carts and checkouts (schema
 * fragments), what it reads from a request, its step in pricing, and its rendering; in the
 * catalog, the filters it owns and the members it adds to variants. Extensions are registered in
 * table.ts; catalog, cart and checkout run the registered steps through steps.ts and never name
 * an extension.
 *
 * Each extension keeps its own part of a session (declared by the extension itself, by merging
 * into `CartExtensionState` / `CheckoutExtensionState` as Fastify's decorators do), kept unused
 * while it is not active for the caller. `read` and `price` run for every registered extension,
 * told whether it is active (what an inactive one keeps or says is its own business); the other
 * steps run only for active ones.
 */
import type { TProperties } from '@sinclair/typebox';
import type {
  Adapter,
  CatalogVariant,
  FulfillmentDiscoveryQuery,
  PickupLocation,
  Quote,
  QuoteRequest,
  VariantFulfillment,
} from '../../adapters/contract.js';
import type { CartCreateRequest, CartUpdateRequest, Cart } from '../../schemas/cart.js';
import type { CatalogFilters, Variant } from '../../schemas/catalog.js';
import type { Checkout, CheckoutCreateRequest, CheckoutUpdateRequest } from '../../schemas/checkout.js';
import type { Context, Message } from '../../schemas/common.js';
import type { PlatformProfile } from '../../schemas/profile.js';
import type { CapabilityName } from '../protocol/capability-registry.js';
import type { AllocationPath } from './allocation-path.js';

/** What a cart keeps for the extensions; each extension adds its member (see discount/extension.ts). */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled by declaration merging
export interface CartExtensionState {}

/** What a checkout session keeps for the extensions; each extension adds its member. */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled by declaration merging
export interface CheckoutExtensionState {}

/** What a checkout request asked for that is checked against the quote (not kept); each extension adds its member. */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled by declaration merging
export interface CheckoutAsks {}

/** The part of an operation's context a step may use (OperationContext fits it). */
export interface ExtensionContext {
  caller: { active: ReadonlySet<CapabilityName>; profile: PlatformProfile };
  tenant: { adapter: Pick<Adapter, 'capabilities'>; capabilities: { has(name: CapabilityName): boolean } };
}

/** The session members every step may read besides its own state. */
export interface SessionBasics {
  lines: ReadonlyArray<{ id: string }>;
  context?: Context | undefined;
}

/** Schema fragments: the members an extension adds to a resource's request and response objects. */
interface ResourceMembers {
  request: TProperties;
  response: TProperties;
}

/** An extension's part of the store's quote request (members of the adapter's `QuoteRequest`). */
export interface QuoteAdditions {
  /** Codes to price, as submitted. */
  discountCodes?: readonly string[];
  /** Price the claims of `context.eligibility`. */
  eligibility?: boolean;
  fulfillment?: QuoteRequest['fulfillment'];
}

export interface Priced {
  quote?: QuoteAdditions;
  /** What the buyer is told about it (e.g. claims nothing is priced for). */
  notices?: Message[];
}

interface Rendered<Body> {
  /** The members it adds to the response (schema fragments' response members). */
  members?: Partial<Body>;
  /** Messages about what the platform sent for it (shown after those about lines). */
  messages?: Message[];
}

export interface RenderStep<State> {
  ctx: ExtensionContext;
  state: State;
  quote: Quote;
  /** Paths of everything a discount can be allocated to (lines, and what extensions render). */
  pathOf: AllocationPath;
}

type CartRequest = CartCreateRequest | CartUpdateRequest;
type CheckoutRequest = CheckoutCreateRequest | CheckoutUpdateRequest;

export interface CartSteps {
  members: ResourceMembers;
  /** `stored`: the cart's state before (none on create). */
  read(step: { active: boolean; request: CartRequest; stored?: CartExtensionState }): Partial<CartExtensionState>;
  price?(step: { ctx: ExtensionContext; active: boolean; session: SessionBasics & CartExtensionState }): Priced;
  render?(step: RenderStep<CartExtensionState>): Rendered<Omit<Cart, 'proto'>>;
}

interface CheckoutRead {
  state: Partial<CheckoutExtensionState>;
  asks?: Partial<CheckoutAsks>;
  /** What in the request could not be used. */
  messages?: Message[];
}

export interface CheckoutSteps {
  members: ResourceMembers;
  /**
   * `stored`: the session's state before (none on create); `carried`: the state of the cart it is
   * made from (none when it is not); `locations`: the store's pickup locations (asked for at most once per request).
   */
  read(step: {
    active: boolean;
    request: CheckoutRequest;
    stored?: CheckoutExtensionState;
    carried?: CartExtensionState;
    locations: () => Promise<PickupLocation[]>;
  }): CheckoutRead | Promise<CheckoutRead>;
  price?(step: { ctx: ExtensionContext; active: boolean; session: SessionBasics & CheckoutExtensionState }): Priced;
  /** After the first quote: the state with what was asked for set where the quote allows it (priced again then); null when unchanged. */
  settle?(step: { state: CheckoutExtensionState; asks: Partial<CheckoutAsks>; quote: Quote }): Partial<CheckoutExtensionState> | null;
  /** After the last quote: what was asked for and not taken. */
  untaken?(step: { asks: Partial<CheckoutAsks>; quote: Quote }): Message[];
  /** Rendering it needs the store's pickup locations. */
  needsLocations?(state: CheckoutExtensionState): boolean;
  /** Paths of what it renders that a discount can be allocated to. */
  allocationPath?(step: { state: CheckoutExtensionState; quote: Quote }): AllocationPath;
  render?(step: RenderStep<CheckoutExtensionState> & { locations: readonly PickupLocation[] }): Rendered<Omit<Checkout, 'proto'>>;
  /** What it still needs before the checkout can be completed (`missing` messages and the like). */
  gaps?(state: CheckoutExtensionState, quote: Quote): Message[];
  /** It lets the platform choose how physical lines are delivered; without one active, they hand the buyer to the store. */
  delivers?: boolean;
}

/** What a catalog step may ask of the store (the catalog's cached reader fits it). */
export interface CatalogSource {
  pickupLocations(): Promise<PickupLocation[]>;
  discoverFulfillment(query: FulfillmentDiscoveryQuery): Promise<VariantFulfillment[]>;
}

/** An extension's part in one catalog request (search, lookup, get_product), for a caller that negotiated it. */
export interface CatalogPart {
  /** What of it narrows the results (bound into search cursors, and no exact total count); absent when it only adds members. */
  narrows?: unknown;
  /** Before a set of products is screened: their variants (what it filters on is asked for up front). */
  prepare?(variants: readonly CatalogVariant[]): Promise<void>;
  /** The variant passes its filters. */
  passes?(variant: CatalogVariant): boolean;
  /** Its members of the variants shown, by variant id. */
  render(variants: readonly CatalogVariant[]): Promise<ReadonlyMap<string, Partial<Variant>>>;
}

export interface CatalogSteps {
  /** The members of a catalog request's `filters` it owns: while it is not active they are refused (400). */
  filters: readonly string[];
  /** Its part in this request; none when it has nothing to do (the store cannot answer, say). */
  read(step: {
    ctx: ExtensionContext;
    filters: CatalogFilters;
    context?: Context;
    source: CatalogSource;
  }): Promise<{ part?: CatalogPart; messages: Message[] }>;
}

export interface Extension {
  capability: CapabilityName;
  catalog?: CatalogSteps;
  cart?: CartSteps;
  checkout?: CheckoutSteps;
}
