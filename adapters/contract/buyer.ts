/** The buyer as an adapter sees it: typed contact details, a verified identity, eligibility claims, the store's own login. */

/** Contact details the buyer typed; not proof of who they are. */
export interface BuyerContact {
  email?: string;
  firstName?: string;
  lastName?: string;
  phone?: string;
}

/**
 * The authenticated buyer, resolved by the gateway from a verified buyer token (identity
 * linking). Absent = a guest: codes that need a login are rejected `user_not_logged_in`.
 */
export interface BuyerIdentity {
  /** The store's customer id. */
  customerId: string;
  email?: string;
  /** The store's own customer token when the login went to the store (Shopify customerAccessToken). */
  accessToken?: string;
}

/** The buyer whose eligibility claims are verified at completion. */
export interface EligibilityBuyer {
  contact?: BuyerContact;
  identity?: BuyerIdentity;
}

export interface EligibilityVerdict {
  claim: string;
  verified: boolean;
  /** Why not, for logs (never shown as the store's reason when absent). */
  detail?: string;
}

/** What a buyer types on the gateway's login page. */
export interface CustomerCredentials {
  email: string;
  password: string;
}

/** A customer the store authenticated: its id in the store and the email the store verified. */
export interface AuthenticatedCustomer {
  customerId: string;
  email: string;
}
