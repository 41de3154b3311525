import path from "node:path";
import type { Order } from "@diginoor/api/orders";
import { diginoorCollectibleAbi } from "@diginoor/contracts/generated/diginoorCollectible";
import { describe, expect, it } from "vitest";
import { openShop, placeOrder, shopEnv } from "./card-shop.ts";
import { postgresPass } from "./passes.ts";
import { type ServerProcess, serverProcessFixture, startServerProcess } from "./server-process.ts";

/**
 * Process roles (issue 21 point 1): one `ROLE=api` process and one `ROLE=worker` process (src/main.ts
 * each, real child processes) on one PostgreSQL database and one chain. The api process takes the
 * card order and the sandbox's webhook and runs no job; the worker serves nothing but its health
 * endpoints, runs the fulfilment job (the mint) and the indexer that confirms it.
 */
// Two processes share one database only on a PostgreSQL server: PGlite is one process's own
// database, so the PGlite pass has nothing to run here (the PostgreSQL pass runs it: passes.ts).
const f = serverProcessFixture("roles", { enabled: postgresPass });

const start = (role: "api" | "worker", publicUrl?: string) =>
  startServerProcess(
    shopEnv(f.chain, {
      ROLE: role,
      DATABASE_URL: f.server.url,
      DATA_DIR: path.join(f.dataDir, role),
      INDEXER_POLL_MS: "50",
      ...(publicUrl ? { PUBLIC_URL: publicUrl } : {}),
    }),
    { waitReady: true },
  );

const fulfilJobStates = async (orderId: string) =>
  (
    await f.server.database.query<{ state: string }>(
      "SELECT state FROM pgboss.job WHERE name = 'orders.fulfil' AND data->>'orderId' = $1",
      [orderId],
    )
  ).map((r) => r.state);

describe.runIf(postgresPass)(
  "ROLE=api and ROLE=worker on one PostgreSQL (skipped on PGlite: one process's database)",
  () => {
    let api: ServerProcess;
    let worker: ServerProcess | undefined;

    it("the api takes a card order and its webhook; the worker, with no HTTP routes, mints it", async () => {
      const [fan] = await openShop(f.server.database, f.chain, 1, 10);
      api = await start("api");
      const created = await placeOrder(api.base, fan!);
      expect(created.status, await created.clone().text()).toBe(201);
      const order = (await created.json()) as Order;
      const session = order.checkoutUrl!.split("/sandbox/checkout/")[1]!;

      // The fan pays on the sandbox's hosted page; its webhook reaches the api (its own outbox, over HTTP).
      const paid = await fetch(`${api.base}/sandbox/checkout/${session}/pay`, {
        method: "POST",
        headers: { origin: api.base },
        redirect: "manual",
      });
      expect(paid.status).toBe(302);
      const getOrder = async () =>
        (await (
          await fetch(`${api.base}/api/v1/orders/${order.orderId}`, { headers: { cookie: fan!.cookie } })
        ).json()) as Order;
      // The api recorded the payment and queued the mint: the job waits, as no process runs jobs yet.
      await expect
        .poll(async () => (await getOrder()).state, { timeout: 15_000, interval: 100 })
        .toBe("paid");
      expect(await fulfilJobStates(order.orderId)).toEqual(["created"]);

      worker = await start("worker", api.base);
      // A worker serves its health endpoints and nothing else.
      const health = await fetch(`${worker.base}/healthz`);
      expect(health.status).toBe(200);
      expect(await health.json()).toEqual({ status: "ok" });
      for (const url of ["/api/v1/orders", "/api/v1/nfts", "/"]) {
        expect((await fetch(`${worker.base}${url}`)).status, url).toBe(404);
      }

      // The worker runs the job (the mint) and its indexer confirms it; the api answers with the result.
      await expect
        .poll(async () => (await getOrder()).state, { timeout: 60_000, interval: 200 })
        .toBe("fulfilled");
      const done = await getOrder();
      expect(done.transitions.map((x) => x.to)).toEqual(["awaiting_payment", "paid", "minting", "fulfilled"]);
      expect(await fulfilJobStates(order.orderId)).toEqual(["completed"]);
      const owner = await f.chain.client.readContract({
        address: f.chain.deployment.collectible,
        abi: diginoorCollectibleAbi,
        functionName: "ownerOf",
        args: [BigInt(done.tokenId!)],
      });
      expect(owner).toBe(fan!.address);

      expect(await worker.terminate()).toBe(0);
      expect(await api.terminate()).toBe(0);
    }, 180_000);
  },
);
