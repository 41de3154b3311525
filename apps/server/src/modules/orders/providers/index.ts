import type { Config } from "../../../config.ts";
import { cashfreeProvider } from "./cashfree.ts";
import { stripeProvider } from "./stripe.ts";
import type { HostedProviderName, PaymentProvider } from "./types.ts";

export type PaymentProviders = Partial<Record<HostedProviderName, PaymentProvider>>;

/**
 * The real providers this server offers: Stripe when its secret key and webhook secret are set,
 * Cashfree when its app id and secret key are. (The orders service adds the sandbox outside
 * production, decision 141.)
 */
export async function paymentProvidersFromConfig(
  config: Pick<
    Config,
    | "PUBLIC_URL"
    | "STRIPE_SECRET_KEY"
    | "STRIPE_WEBHOOK_SECRET"
    | "STRIPE_API_BASE"
    | "STRIPE_CURRENCY"
    | "CASHFREE_CLIENT_ID"
    | "CASHFREE_CLIENT_SECRET"
    | "CASHFREE_ENV"
    | "CASHFREE_API_BASE"
    | "PAYMENT_PROVIDER_TIMEOUT_MS"
  >,
): Promise<PaymentProviders> {
  const providers: PaymentProviders = {};
  if (config.STRIPE_SECRET_KEY && config.STRIPE_WEBHOOK_SECRET) {
    providers.stripe = await stripeProvider({
      secretKey: config.STRIPE_SECRET_KEY,
      webhookSecret: config.STRIPE_WEBHOOK_SECRET,
      apiBase: config.STRIPE_API_BASE,
      timeoutMs: config.PAYMENT_PROVIDER_TIMEOUT_MS,
      currency: config.STRIPE_CURRENCY,
    });
  }
  if (config.CASHFREE_CLIENT_ID && config.CASHFREE_CLIENT_SECRET) {
    providers.cashfree = await cashfreeProvider({
      clientId: config.CASHFREE_CLIENT_ID,
      clientSecret: config.CASHFREE_CLIENT_SECRET,
      environment: config.CASHFREE_ENV,
      apiBase: config.CASHFREE_API_BASE,
      publicUrl: config.PUBLIC_URL,
      timeoutMs: config.PAYMENT_PROVIDER_TIMEOUT_MS,
    });
  }
  return providers;
}
