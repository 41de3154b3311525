import type { Order } from "@diginoor/api/orders";
import { signSandboxPayload } from "../src/modules/orders/sandbox.ts";
import { sandboxSecret } from "../src/modules/orders/service.ts";
import type { Clock } from "../src/platform/clock.ts";
import { sandboxEvent } from "./card-orders.ts";
import { newSignedInUser } from "./factories.ts";
import { ORIGIN } from "./fixtures/accounts.ts";
import type { TestApp } from "./harness.ts";

/**
 * Lottery ticket orders over HTTP, as a fan's browser and the sandbox provider make them: the order
 * (POST /api/v1/lotteries/:id/orders), its read-back, and the sandbox's signed webhooks.
 */
export function ticketTraffic(t: () => TestApp, clock: Clock) {
  const nowSec = () => Math.floor(clock.now() / 1000);

  async function call<T = Record<string, unknown>>(
    method: string,
    url: string,
    cookie?: string,
    payload?: unknown,
  ) {
    const res = await t().app.inject({
      method: method as "GET",
      url,
      headers: { origin: ORIGIN, ...(cookie ? { cookie } : {}) },
      ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }),
    });
    return { status: res.statusCode, body: res.json() as T };
  }

  /** A ticket order as the lottery page sends it (sandbox, an allowed region, rules accepted) with `body` over it. */
  const buy = (cookie: string | undefined, lotteryId: string, body: Record<string, unknown>) =>
    call<{ orderId: string; state: string; checkoutUrl: string | null }>(
      "POST",
      `/api/v1/lotteries/${lotteryId}/orders`,
      cookie,
      { provider: "sandbox", region: "IN-MH", acceptRules: true, ...body },
    );

  /** The sandbox's signed webhook with `body`, through the whole HTTP stack. */
  const webhook = (body: string) =>
    t().app.inject({
      method: "POST",
      url: "/api/v1/webhooks/sandbox",
      payload: body,
      headers: {
        "content-type": "application/json",
        "x-sandbox-signature": signSandboxPayload(sandboxSecret(t().ctx.config), body, nowSec()),
      },
    });

  /** The sandbox event of an order (its session and amount from GET /api/v1/orders/:id). */
  const eventOf = (o: Order, type: "payment.succeeded" | "payment.failed", id?: string) =>
    sandboxEvent(o, type, nowSec(), id ?? `evt_${type}_${o.orderId}`);

  const getOrder = async (cookie: string, orderId: string) =>
    (await call<Order>("GET", `/api/v1/orders/${orderId}`, cookie)).body;

  /** A new fan's paid order of `count` tickets (bought and paid through the sandbox's webhook). */
  async function paidTickets(lotteryId: string, count: number, fan?: { cookie: string }) {
    const buyer = fan ?? (await newSignedInUser(t().ctx));
    const made = await buy(buyer.cookie, lotteryId, { count });
    if (made.status !== 201) throw new Error(`ticket order refused: ${JSON.stringify(made.body)}`);
    const o = await getOrder(buyer.cookie, made.body.orderId);
    const res = await webhook(eventOf(o, "payment.succeeded"));
    if (res.statusCode !== 200) throw new Error(`sandbox webhook refused: ${res.body}`);
    return getOrder(buyer.cookie, o.orderId);
  }

  return { call, buy, webhook, eventOf, getOrder, paidTickets, nowSec };
}

/**
 * A lottery opening in an hour (pool prize), created by `adminCookie` over HTTP at `base` (a
 * listening test app): its id.
 */
export async function newOpenLottery(base: string, adminCookie: string, name: string): Promise<string> {
  const hour = 3600_000;
  const made = await fetch(`${base}/api/v1/admin/lotteries`, {
    method: "POST",
    headers: { cookie: adminCookie, origin: ORIGIN, "content-type": "application/json" },
    body: JSON.stringify({
      name,
      ticketPriceCents: 250,
      minTickets: 10,
      opensAt: new Date(Date.now() + hour).toISOString(),
      closesAt: new Date(Date.now() + 3 * hour).toISOString(),
      prize: { kind: "pool", amountCents: 50_000 },
      rules: "One winner.",
    }),
  });
  if (made.status !== 201) throw new Error(`lottery not created: ${made.status} ${await made.text()}`);
  return ((await made.json()) as { id: string }).id;
}
