/** Shopify's money (`MoneyV2`: a decimal string and its currency) as exact minor units. */
import { toMinorUnits } from '../kit/money.js';

export interface MoneyV2 {
  amount: string;
  currencyCode: string;
}

export const money = (m: MoneyV2) => toMinorUnits(m.amount, m.currencyCode);
