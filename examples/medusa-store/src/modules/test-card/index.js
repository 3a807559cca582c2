// A card payment provider in the manner of a processor's test mode (Stripe's test cards): the
// payment session carries a card token in its `data` (`{ token }`, as a storefront passes a
// processor's payment method id), `fail_token` is declined at authorization, any other token is
// authorized and captured. The demo store offers it beside Medusa's `pp_system_default`, so the
// gateway's store_charged finishing is tested with a real decline from Medusa's payment module.
// Registered in medusa-config.js as `pp_test-card_test-card`.
const { AbstractPaymentProvider, ModuleProvider, Modules, PaymentSessionStatus } = require('@medusajs/framework/utils');

const DECLINED = 'fail_token';

class TestCardProvider extends AbstractPaymentProvider {
  static identifier = 'test-card';

  async initiatePayment({ data }) {
    return { id: `tc_${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`, data: { ...data } };
  }

  async authorizePayment({ data }) {
    if (!data || typeof data.token !== 'string' || data.token === DECLINED) {
      return { status: PaymentSessionStatus.ERROR, data: { ...data, declined: true } };
    }
    return { status: PaymentSessionStatus.CAPTURED, data: { ...data, captured: true } };
  }

  async getPaymentStatus({ data }) {
    return { status: data && data.captured ? PaymentSessionStatus.CAPTURED : PaymentSessionStatus.PENDING, data };
  }

  async updatePayment({ data }) {
    return { data };
  }

  async capturePayment({ data }) {
    return { data: { ...data, captured: true } };
  }

  async cancelPayment({ data }) {
    return { data };
  }

  async deletePayment({ data }) {
    return { data };
  }

  async refundPayment({ data }) {
    return { data };
  }

  async retrievePayment({ data }) {
    return { data };
  }

  async getWebhookActionAndData() {
    return { action: 'not_supported' };
  }
}

module.exports = ModuleProvider(Modules.PAYMENT, { services: [TestCardProvider] });
