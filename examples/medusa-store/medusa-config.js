// The seeded demo store's Medusa configuration (plain CommonJS, so `medusa start` needs no build
// step). Everything comes from the environment the harness or `npm run demo:medusa` sets.
const { defineConfig, loadEnv } = require('@medusajs/framework/utils');

loadEnv(process.env.NODE_ENV || 'development', process.cwd());

const cors = process.env.STORE_CORS || 'http://localhost:8000';

module.exports = defineConfig({
  projectConfig: {
    databaseUrl: process.env.DATABASE_URL,
    http: {
      storeCors: cors,
      adminCors: process.env.ADMIN_CORS || cors,
      authCors: process.env.AUTH_CORS || cors,
      jwtSecret: process.env.JWT_SECRET || 'medusa-demo-jwt-secret',
      cookieSecret: process.env.COOKIE_SECRET || 'medusa-demo-cookie-secret',
    },
  },
  // No admin dashboard: the gateway talks to the APIs only, and the dashboard needs a Vite build.
  admin: { disable: true },
  modules: [
    {
      resolve: '@medusajs/medusa/payment',
      options: {
        providers: [
          // A card provider that behaves like Stripe's (@medusajs/payment-stripe) in test mode: it keeps
          // only the session data Stripe's provider reads and declines `fail_token`. Two ids:
          // pp_test-card_test-card and the Stripe-like pp_stripe_test-card. `capture`: as a Stripe
          // store that charges at checkout (payment-stripe's option of that name; Stripe's default
          // only authorizes, the merchant capturing later).
          { resolve: './src/modules/test-card', id: 'test-card', options: { capture: true } },
        ],
      },
    },
  ],
});
