import { createHash } from "node:crypto";
import { lotteryEndpoints } from "@diginoor/api/lottery";
import { orderEndpoints as api, orderMessages } from "@diginoor/api/orders";
import type { FastifyInstance } from "fastify";
import type { AppContext } from "../../context.ts";
import { AppError } from "../../http/errors.ts";
import { rawBodyRoutes } from "../../http/raw-body.ts";
import { route } from "../../http/route.ts";
import type { RateLimitRule } from "../../lib/rate-limit.ts";
import { CHAIN_EVENTS_CHANNEL } from "../indexer/service.ts";
import {
  fulfilOrderJob,
  mintPrizeJobOf,
  openAuctionsJob,
  orderMailJob,
  reconcileOrdersJob,
  refundMailJob,
  refundOrderJob,
} from "./jobs.ts";
import { CASHFREE_CHECKOUT_SCRIPT } from "./providers/cashfree.ts";
import { checkoutPage, SIGNATURE_HEADER } from "./sandbox.ts";

/** The CSP hash of the one inline script of our Cashfree checkout page. */
const CASHFREE_SCRIPT_HASH = `sha256-${createHash("sha256").update(CASHFREE_CHECKOUT_SCRIPT).digest("base64")}`;

/** The sandbox sends each event twice: at once, and a copy this much later (like a provider's retry). */
const SANDBOX_DUPLICATE_DELAY_MS = 1500;
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

/** Orders (every provider), and the live primary auction of auction NFTs. */
export async function registerOrders(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const { lifecycle, walletCheckout, hostedCheckout, resale, fulfilment, auctions } = ctx.services.orders;
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
          for (const d of deliveries) sandboxDeliver(d);
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
        onrampUrl: ctx.config.ONRAMP_URL ?? null,
        inrMicrosPerUsd: (await ctx.services.quotes.inrMicrosPerUsd()).toString(),
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

  /**
   * The sandbox provider's outbox: POSTs a signed event to our webhook route through the whole HTTP
   * stack (raw body, signature check), once at once and once late; a refused delivery is retried a
   * few times like a provider would.
   */
  const pending = new Set<Promise<void>>();
  function sandboxDeliver(d: { body: string; sign: () => string }) {
    const send = async (delayMs: number) => {
      await new Promise((r) => setTimeout(r, delayMs));
      for (let attempt = 0; attempt < 3; attempt++) {
        const res = await app.inject({
          method: "POST",
          url: api.sandboxWebhook.path,
          payload: d.body,
          headers: { "content-type": "application/json", [SIGNATURE_HEADER]: d.sign() },
        });
        if (res.statusCode < 500) return;
        await new Promise((r) => setTimeout(r, 500 * 2 ** attempt));
      }
    };
    for (const delay of [0, SANDBOX_DUPLICATE_DELAY_MS]) {
      const p = send(delay)
        .catch((err) => app.log.warn({ err }, "sandbox: webhook delivery failed"))
        .finally(() => pending.delete(p));
      pending.add(p);
    }
  }
  hostedCheckout.useSandboxOutbox(sandboxDeliver);
  app.addHook("preClose", async () => {
    await Promise.all(pending);
  });

  ctx.jobs.register(
    fulfilOrderJob(fulfilment),
    mintPrizeJobOf(fulfilment),
    orderMailJob(
      {
        database: ctx.database,
        mailer: ctx.mailer,
        publicUrl: ctx.config.PUBLIC_URL,
        notifications: ctx.services.notifications,
      },
      lifecycle,
    ),
    reconcileOrdersJob(ctx.services.orders),
    refundOrderJob(hostedCheckout),
    refundMailJob(
      {
        database: ctx.database,
        mailer: ctx.mailer,
        publicUrl: ctx.config.PUBLIC_URL,
        notifications: ctx.services.notifications,
      },
      lifecycle,
    ),
    openAuctionsJob(auctions, (o) => app.log.info(o, "primary auctions")),
  );
  if (!ctx.chain || !ctx.config.WORKERS) return;
  // Each batch the indexer applies may fulfil orders: look at once instead of waiting for the schedule.
  let unsubscribe: (() => Promise<void>) | undefined;
  let running: Promise<unknown> = Promise.resolve();
  app.addHook("onReady", async () => {
    unsubscribe = await ctx.pubsub.subscribe(CHAIN_EVENTS_CHANNEL, () => {
      running = running
        .then(() => lifecycle.reconcileOrders())
        .catch((err) => app.log.warn({ err }, "orders: reconcile after chain events failed"));
    });
    await ctx.jobs
      .enqueue(openAuctionsJob(auctions), {}, { singletonKey: "startup" })
      .catch((err) => app.log.warn({ err }, "orders: could not enqueue the auction opener"));
    // A process that died mid-fulfilment left its orders paid or minting: look at them now, not in a minute.
    await ctx.jobs
      .enqueue(reconcileOrdersJob(ctx.services.orders), {}, { singletonKey: "startup" })
      .catch((err) => app.log.warn({ err }, "orders: could not enqueue the reconciler"));
  });
  app.addHook("preClose", async () => {
    await unsubscribe?.();
    await running;
  });
}
