import { z } from "zod";
import { defineJob } from "../../platform/jobs/jobs.ts";
import type { OrdersService } from "./service.ts";

const empty = z.object({});

/**
 * Every minute: fulfils wallet orders whose mint the indexer has applied (if a chain-events message
 * was missed) and releases the editions of orders whose voucher expired unredeemed.
 */
export function reconcileOrdersJob(orders: Pick<OrdersService, "reconcileWalletOrders">) {
  return defineJob({
    name: "orders.reconcile",
    payload: empty,
    retry: { limit: 1, delaySeconds: 30, backoff: false },
    expireInSeconds: 120,
    schedule: { cron: "* * * * *", payload: {} },
    handler: async () => {
      await orders.reconcileWalletOrders();
    },
  });
}

/**
 * Every five minutes (and at start): opens the next edition's on-chain auction of each auction NFT
 * whose previous auction was settled, and resumes openings a crash interrupted.
 */
export function openAuctionsJob(
  orders: Pick<OrdersService, "openPrimaryAuctions">,
  log: (counts: object) => void = () => {},
) {
  return defineJob({
    name: "orders.open-auctions",
    payload: empty,
    retry: { limit: 3, delaySeconds: 30, backoff: true },
    expireInSeconds: 600,
    schedule: { cron: "*/5 * * * *", payload: {} },
    handler: async () => {
      const counts = await orders.openPrimaryAuctions();
      if (counts.opened || counts.failed) log(counts);
    },
  });
}
