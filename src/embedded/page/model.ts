/** The parts of the protocol's cart and checkout objects (spec part 1) the page reads. */
import type { ProtoMessage } from './host-link.js';

export interface Total {
  type: string;
  amount: number;
  display_text?: string;
}

export interface LineItem {
  id: string;
  item: { id: string; title: string; price: number; image_url?: string };
  quantity: number;
  totals: Total[];
}

export interface PostalAddress {
  id?: string;
  first_name?: string;
  last_name?: string;
  street_address?: string;
  extended_address?: string;
  address_locality?: string;
  address_region?: string;
  address_country?: string;
  postal_code?: string;
  phone_number?: string;
}

export interface FulfillmentOption {
  id: string;
  title: string;
  description?: string;
  totals: Total[];
}

export interface FulfillmentMethod {
  id: string;
  /** `shipping` or `pickup`, or a method type of a later protocol version. */
  type: string;
  line_item_ids: string[];
  destinations?: Array<PostalAddress & { name?: string; address?: PostalAddress }>;
  selected_destination_id?: string | null;
  groups?: Array<{ id: string; line_item_ids: string[]; options: FulfillmentOption[]; selected_option_id?: string | null }>;
}

export interface Buyer {
  email?: string;
  first_name?: string;
  last_name?: string;
  phone_number?: string;
}

export interface Instrument {
  id?: string;
  handler_id: string;
  type: string;
  selected?: boolean;
  display?: { brand?: string; last_digits?: string; description?: string };
  credential?: { type: string; token: string };
}

export interface PaymentHandler {
  id: string;
  version?: string;
  available_instruments?: Array<{ type: string }>;
}

/** A cart or checkout as the gateway answers it (the REST body, `proto` envelope included). */
export interface Resource {
  proto?: { version: string; status: string; payment_handlers?: Record<string, PaymentHandler[]> };
  id: string;
  status?: string;
  line_items: LineItem[];
  currency: string;
  totals: Total[];
  buyer?: Buyer;
  context?: Record<string, unknown>;
  discounts?: { codes?: string[]; applied?: Array<{ code?: string; title: string; amount: number }> };
  fulfillment?: {
    methods: FulfillmentMethod[];
    available_methods?: Array<{ type: string; line_item_ids: string[]; description?: string }>;
  };
  payment?: { instruments: Instrument[] };
  messages?: ProtoMessage[];
  links?: Array<{ type: string; url: string; title?: string }>;
  continue_url?: string;
  order?: { id: string; permalink_url?: string };
}

export const isFinished = (r: Resource) => r.status === 'completed' || r.status === 'canceled';
