import { createHash } from "node:crypto";
import { lotteryEndpoints } from "@diginoor/api/lottery";
import { orderEndpoints as api, orderMessages } from "@diginoor/api/orders";
import type { FastifyInstance } from "fastify";
import { AppError } from "../../http/errors.ts";
import { rawBodyRoutes } from "../../http/raw-body.ts";
import { route } from "../../http/route.ts";
import type { RateLimitRule } from "../../lib/rate-limit.ts";
import { outboxThroughApp } from "../../lib/webhook-outbox.ts";
import { CASHFREE_CHECKOUT_SCRIPT } from "./providers/cashfree.ts";
import { checkoutPage, SIGNATURE_HEADER } from "./sandbox.ts";
import type { OrdersUnits } from "./service.ts";
import type { QuotesService } from "../quotes/service.ts";

/** The CSP hash of the one inline script of our Cashfree checkout page. */
const CASHFREE_SCRIPT_HASH = `sha256-${createHash("sha256").update(CASHFREE_CHECKOUT_SCRIPT).digest("base64")}`;

/** Webhook bodies are small JSON documents. */
const WEBHOOK_BODY_LIMIT = 64 * 1024;

/** Each order reserves an edition: a user may start at most this many a quarter of an hour. */
const ORDERS_PER_USER: RateLimitRule = { name: "orders:user", limit: 20, windowSeconds: 15 * 60 };
/** Ticket orders hold nothing but count against the per-player cap while unpaid. */
const TICKET_ORDERS_PER_USER: RateLimitRule = {
  name: "ticket-orders:user",
  limit: 60,
  windowSeconds: 15 * 60,
};

/** What the orders routes call. */
export interface OrdersRoutesDeps {
  orders: Pick<OrdersUnits, "lifecycle" | "walletCheckout" | "hostedCheckout" | "resale" | "auctions">;
  quotes: Pick<QuotesService, "inrMicrosPerUsd">;
  onrampUrl: string | undefined;
}

/** Orders (every provider), and the live primary auction of auction NFTs. */
export async function registerOrders(app: FastifyInstance, deps: OrdersRoutesDeps): Promise<void> {
  const { lifecycle, walletCheckout, hostedCheckout, resale, auctions } = deps.orders;
  const userId = (u: { id: string } | null) => (u as { id: string }).id;

  route(app, api.createOrder, {
    permission: "signed-in",
    rateLimits: [{ rule: ORDERS_PER_USER, by: "user" }],
    handler: async ({ user, body, reply }) => {
      const { listing } = body;
      if (listing && body.provider === "wallet") throw AppError.badRequest(orderMessages.resaleByWallet);
      const order = listing
        ? await resale.createOrder(userId(user), { ...body, listing })
        : body.provider === "wallet"
          ? await walletCheckout.createOrder(userId(user), body)
          : await hostedCheckout.createOrder(userId(user), body);
      reply.code(201);
      return order;
    },
  });
  route(app, lotteryEndpoints.createTicketOrder, {
    permission: "signed-in",
    rateLimits: [{ rule: TICKET_ORDERS_PER_USER, by: "user" }],
    handler: async ({ user, params, body, reply }) => {
      reply.code(201);
      return hostedCheckout.createTicketOrder(userId(user), params.id, body);
    },
  });
  route(app, api.cancelOrder, {
    permission: "signed-in",
    handler: ({ user, params }) => hostedCheckout.cancelOrder(userId(user), params.orderId),
  });
  route(app, api.listOrders, {
    permission: "signed-in",
    handler: ({ user }) => lifecycle.listOrders(userId(user)),
  });
  route(app, api.getOrder, {
    permission: "signed-in",
    handler: ({ user, params }) => lifecycle.getOrder(userId(user), params.orderId),
  });
  route(app, api.reportTransaction, {
    permission: "signed-in",
    handler: ({ user, params, body }) =>
      walletCheckout.reportTransaction(userId(user), params.orderId, body.txHash),
  });
  route(app, api.adminListOrders, {
    permission: "admin",
    handler: ({ query }) => lifecycle.adminOrders(query.state),
  });
  route(app, api.getNftAuction, {
    permission: "public",
    handler: ({ params }) => auctions.nftAuction(params.id),
  });

  // Provider webhooks and the sandbox's hosted checkout take any body as raw bytes (signatures).
  await rawBodyRoutes(
    app,
    (scope) => {
      route(scope, api.sandboxWebhook, {
        permission: "public",
        handler: ({ req }) => hostedCheckout.handleWebhook("sandbox", req.body as Buffer, req.headers),
      });
      route(scope, api.stripeWebhook, {
        permission: "public",
        handler: ({ req }) => hostedCheckout.handleWebhook("stripe", req.body as Buffer, req.headers),
      });
      route(scope, api.cashfreeWebhook, {
        permission: "public",
        handler: ({ req }) => hostedCheckout.handleWebhook("cashfree", req.body as Buffer, req.headers),
      });
      route(scope, api.sandboxCheckoutAction, {
        permission: "public",
        handler: async ({ params, reply }) => {
          const { redirect, deliveries } = await hostedCheckout.sandboxAction(
            params.sessionId,
            params.action,
          );
          // The payer is sent back at once; the payment's webhook follows (its failure is logged).
          for (const d of deliveries) void outbox.deliver(d).catch(() => {});
          return reply.redirect(redirect, 302);
        },
      });
    },
    { bodyLimit: WEBHOOK_BODY_LIMIT },
  );
  route(app, api.checkoutOptions, {
    permission: "public",
    handler: async () => {
      const offered = hostedCheckout.checkoutProviders();
      return {
        card: offered.includes("stripe")
          ? ("stripe" as const)
          : offered.includes("sandbox")
            ? ("sandbox" as const)
            : null,
        rupees: offered.includes("cashfree") ? ("cashfree" as const) : null,
        cardCurrency: hostedCheckout.cardCurrency(),
        providers: offered,
        onrampUrl: deps.onrampUrl ?? null,
        inrMicrosPerUsd: (await deps.quotes.inrMicrosPerUsd()).toString(),
      };
    },
  });
  route(app, api.cashfreeCheckoutPage, {
    permission: "public",
    handler: async ({ params, reply }) => {
      const page = await hostedCheckout.cashfreeCheckout(params.orderId);
      if (page.html === null) return reply.redirect(page.redirect, 302);
      return reply
        .type("text/html; charset=utf-8")
        .header("cache-control", "no-store")
        .header(
          "content-security-policy",
          `default-src 'none'; script-src https://sdk.cashfree.com '${CASHFREE_SCRIPT_HASH}'; connect-src https://*.cashfree.com; frame-src https://*.cashfree.com; img-src https: data:; style-src 'unsafe-inline'; form-action https://*.cashfree.com`,
        )
        .send(page.html);
    },
  });
  route(app, api.sandboxCheckoutPage, {
    permission: "public",
    handler: async ({ params, reply }) => {
      const session = await hostedCheckout.sandboxSession(params.sessionId);
      return reply
        .type("text/html; charset=utf-8")
        .header("cache-control", "no-store")
        .header(
          "content-security-policy",
          "default-src 'none'; img-src 'self'; style-src 'unsafe-inline'; form-action 'self'",
        )
        .send(checkoutPage(session));
    },
  });

  // The sandbox provider's outbox posts through the whole HTTP stack (raw body, signature check).
  const outbox = outboxThroughApp(
    app,
    api.sandboxWebhook.path,
    SIGNATURE_HEADER,
    hostedCheckout.useSandboxPost,
  );
}
