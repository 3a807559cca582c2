/**
 * The complete_checkout payload every suite pays with: one card through the sandbox handler
 * (src/payments/sandbox.ts), whose token decides the outcome ("success_token" is approved).
 */
export const pay = (token = 'success_token', extra: Record<string, unknown> = {}) => ({
  payment: {
    instruments: [
      {
        id: 'instr_1',
        handler_id: 'sandbox',
        type: 'card',
        selected: true,
        display: { brand: 'Visa', last_digits: '1234' },
        credential: { type: 'PAYMENT_GATEWAY', token },
        ...extra,
      },
    ],
  },
  signals: { 'dev.proto.buyer_ip': '203.0.113.7', 'dev.proto.user_agent': 'flower-agent/1.0' },
});
