/** The Storefront Cart as the adapter's CART fragment selects it. */
import type { MoneyV2 } from './money.js';
import type { SfStoreAvailability } from './pickup.js';

export interface SfAllocation {
  discountedAmount: MoneyV2;
  targetType: 'LINE_ITEM' | 'SHIPPING_LINE';
  code?: string;
  title?: string;
}

interface SfCartLine {
  id: string;
  quantity: number;
  attributes: Array<{ key: string; value: string | null }>;
  merchandise: {
    id: string;
    title: string;
    sku: string | null;
    requiresShipping: boolean;
    currentlyNotInStock: boolean;
    availableForSale: boolean;
    /** Sellable quantity for online channels; null when Shopify does not say. */
    quantityAvailable: number | null;
    image: { url: string } | null;
    product: { id: string; title: string };
    selectedOptions: Array<{ name: string; value: string }>;
    storeAvailability: { nodes: SfStoreAvailability[] };
  };
  cost: { amountPerQuantity: MoneyV2; subtotalAmount: MoneyV2 };
  discountAllocations: SfAllocation[];
}

interface SfDeliveryGroup {
  id: string;
  cartLines: { nodes: Array<{ id: string }> };
  deliveryOptions: Array<{
    handle: string;
    code: string | null;
    title: string | null;
    description: string | null;
    deliveryMethodType: string;
    estimatedCost: MoneyV2;
  }>;
  selectedDeliveryOption: { handle: string } | null;
  discountAllocations: SfAllocation[];
}

export interface SfCart {
  id: string;
  checkoutUrl: string;
  buyerIdentity: { email: string | null; countryCode: string | null };
  attributes: Array<{ key: string; value: string | null }>;
  discountCodes: Array<{ code: string; applicable: boolean }>;
  discountApplications: Array<{ allocationMethod: 'EACH' | 'ACROSS' | 'ONE'; targetType: string; code?: string; title?: string }>;
  lines: { nodes: SfCartLine[] };
  deliveryGroups: { nodes: SfDeliveryGroup[] };
  cost: { subtotalAmount: MoneyV2; totalAmount: MoneyV2 };
}

export interface SfUserError {
  field: string[] | null;
  message: string;
  code: string | null;
}

export interface SfCartPayload {
  cart: SfCart | null;
  userErrors: SfUserError[];
  warnings: Array<{ code: string; message: string; target: string }>;
}
