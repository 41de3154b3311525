import { orderEndpoints as api } from "@diginoor/api/orders";
import type { FastifyInstance } from "fastify";
import type { AppContext } from "../../context.ts";
import { route } from "../../http/route.ts";
import type { RateLimitRule } from "../../lib/rate-limit.ts";
import { CHAIN_EVENTS_CHANNEL } from "../indexer/service.ts";
import { openAuctionsJob, reconcileOrdersJob } from "./jobs.ts";

/** Each order reserves an edition: a user may start at most this many a quarter of an hour. */
const ORDERS_PER_USER: RateLimitRule = { name: "orders:user", limit: 20, windowSeconds: 15 * 60 };

/** Orders (every provider), and the live primary auction of auction NFTs. */
export async function registerOrders(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const orders = ctx.services.orders;
  const userId = (u: { id: string } | null) => (u as { id: string }).id;

  route(app, api.createOrder, {
    permission: "signed-in",
    rateLimits: [{ rule: ORDERS_PER_USER, by: "user" }],
    handler: async ({ user, body, reply }) => {
      reply.code(201);
      return orders.createOrder(userId(user), body);
    },
  });
  route(app, api.listOrders, {
    permission: "signed-in",
    handler: ({ user }) => orders.listOrders(userId(user)),
  });
  route(app, api.getOrder, {
    permission: "signed-in",
    handler: ({ user, params }) => orders.getOrder(userId(user), params.orderId),
  });
  route(app, api.reportTransaction, {
    permission: "signed-in",
    handler: ({ user, params, body }) => orders.reportTransaction(userId(user), params.orderId, body.txHash),
  });
  route(app, api.adminListOrders, {
    permission: "admin",
    handler: ({ query }) => orders.adminOrders(query.state),
  });
  route(app, api.getNftAuction, {
    permission: "public",
    handler: ({ params }) => orders.nftAuction(params.id),
  });

  ctx.jobs.register(
    reconcileOrdersJob(orders),
    openAuctionsJob(orders, (o) => app.log.info(o, "primary auctions")),
  );
  if (!ctx.chain || !ctx.config.WORKERS) return;
  // Each batch the indexer applies may fulfil orders: look at once instead of waiting for the schedule.
  let unsubscribe: (() => Promise<void>) | undefined;
  let running: Promise<unknown> = Promise.resolve();
  app.addHook("onReady", async () => {
    unsubscribe = await ctx.pubsub.subscribe(CHAIN_EVENTS_CHANNEL, () => {
      running = running
        .then(() => orders.reconcileWalletOrders())
        .catch((err) => app.log.warn({ err }, "orders: reconcile after chain events failed"));
    });
    await ctx.jobs
      .enqueue(openAuctionsJob(orders), {}, { singletonKey: "startup" })
      .catch((err) => app.log.warn({ err }, "orders: could not enqueue the auction opener"));
  });
  app.addHook("preClose", async () => {
    await unsubscribe?.();
    await running;
  });
}
