// A fresh wallet key: card checkouts need a wallet to mint to (see refunds.spec.ts).
import { generatePrivateKey } from "viem/accounts";
import type { LiveEvent } from "@diginoor/api/events";
import type { Order, OrderList } from "@diginoor/api/orders";
import { type APIRequestContext, expect, type Page, test } from "@playwright/test";
import { signUpAndSignIn } from "./support/accounts.ts";
import { fixedPriceNft, getJson } from "./support/api.ts";
import { openCardCheckout } from "./support/checkout.ts";
import { expectNoProblems, shotsAtBothWidths, watchPage } from "./support/page.ts";
import { linkTestWallet } from "./support/test-wallet.ts";

/**
 * Live, not polled (issue 21 point 5): with the web app's polling switched off (the diagnostic
 * switch of lib/live-streams.ts, so only the event stream can change the page), a fan's open
 * confirmation page follows the order from "waiting for payment" to "in your wallet", and the bell
 * counts the purchase's notification, each within 1 s of the server's change. The payment is made
 * from another browser (the provider's page), so nothing on the fan's page asks for it.
 */
const LIVE_BUDGET_MS = 1000;
type NotificationEvent = Extract<LiveEvent, { type: "notification" }>;

interface Heard {
  /** When the test received it. */
  at: number;
  type: string;
  data: unknown;
}

/**
 * The fan's own event stream, read by the test (with the fan's cookie) beside the page's: when the
 * server's event was sent is when the test hears it (same machine, same stream).
 */
async function listen(baseURL: string, cookie: string) {
  const abort = new AbortController();
  const res = await fetch(`${baseURL}/api/v1/events`, {
    headers: { accept: "text/event-stream", cookie },
    signal: abort.signal,
  });
  expect(res.status).toBe(200);
  const heard: Heard[] = [];
  const waiters = new Set<() => void>();
  void (async () => {
    let buffer = "";
    const reader = (res.body as ReadableStream<Uint8Array>).pipeThrough(new TextDecoderStream()).getReader();
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return;
        buffer += value;
        const blocks = buffer.split("\n\n");
        buffer = blocks.pop() ?? "";
        for (const block of blocks) {
          const type = /^event: (.+)$/m.exec(block)?.[1];
          const data = /^data: (.+)$/m.exec(block)?.[1];
          if (type && data) heard.push({ at: Date.now(), type, data: JSON.parse(data) });
        }
        for (const w of waiters) w();
      }
    } catch {
      // closed by the test
    }
  })();
  return {
    /** When the first event `match` accepts arrived (waits for it). */
    when(match: (e: Heard) => boolean, timeoutMs = 90_000): Promise<number> {
      return new Promise((resolve, reject) => {
        const check = () => {
          const e = heard.find(match);
          if (!e) return;
          waiters.delete(check);
          clearTimeout(timer);
          resolve(e.at);
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`no such event in ${JSON.stringify(heard.map((h) => h.data))}`));
        }, timeoutMs);
        waiters.add(check);
        check();
      });
    },
    close: () => abort.abort(),
  };
}

/**
 * When the page first showed an element matching `selector` (with exactly `text`, if given): a
 * MutationObserver in the page notes the time, so no polling from the test delays it. Start it before
 * the change.
 */
function shownAt(page: Page, selector: string, text?: string): Promise<number> {
  return page.evaluate(
    ({ selector, text }) =>
      new Promise<number>((resolve) => {
        const shown = () =>
          [...document.querySelectorAll(selector)].some(
            (e) => text === undefined || e.textContent?.trim() === text,
          );
        if (shown()) return resolve(Date.now());
        const observer = new MutationObserver(() => {
          if (!shown()) return;
          observer.disconnect();
          resolve(Date.now());
        });
        observer.observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
      }),
    { selector, text },
  );
}

/** How long after the event `match` accepts the page showed `shown` (ms). */
async function latency(sent: Promise<number>, shown: Promise<number>) {
  const [heard, at] = await Promise.all([sent, shown]);
  return at - heard;
}

const orderState = (request: APIRequestContext, orderId: string) =>
  getJson<Order>(request, `/api/v1/orders/${orderId}`).then((o) => o.state);

test("the confirmation page and the bell follow the server's events with polling off, each within 1 s", async ({
  browser,
  request,
}) => {
  test.setTimeout(180_000);
  const chain = await getJson<{ chainId: number; rpcUrl: string }>(request, "/api/v1/chain");
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  await context.addInitScript(() => {
    try {
      window.localStorage.setItem("diginoor.polling", "off");
    } catch {
      // a page without storage (about:blank)
    }
  });
  const page = await context.newPage();
  const watch = watchPage(page);
  const payer = await browser.newContext();
  let stopListening = () => {};
  try {
    await signUpAndSignIn(page.request, "live", "Live Fan");
    await linkTestWallet(page, {
      rpcUrl: chain.rpcUrl,
      chainId: chain.chainId,
      privateKey: generatePrivateKey(),
    });
    const nft = await fixedPriceNft(request, 8);
    const { card } = await openCardCheckout(page, nft);
    await card.click();
    await expect(page).toHaveURL(/\/sandbox\/checkout\/cs_sandbox_[0-9a-f]{24}$/, { timeout: 15_000 });
    const checkoutUrl = page.url();
    const { items } = await getJson<OrderList>(page.request, "/api/v1/orders");
    const orderId = items.find((o) => o.nftId === nft.id)?.orderId ?? "";
    expect(await orderState(page.request, orderId)).toBe("awaiting_payment");

    // The fan's confirmation page, its event stream open (the server answers once it has subscribed).
    const streamOpen = page.waitForResponse(
      (r) => new URL(r.url()).pathname === "/api/v1/events" && r.status() === 200,
    );
    await page.goto(`/confirmation/${nft.id}/${orderId}`);
    await streamOpen;
    await expect(page.getByText("Waiting for the card provider to confirm the payment")).toBeVisible();
    const bell = page.getByRole("button", { name: "Notifications", exact: true });
    await expect(bell).toBeVisible();
    expect(await page.evaluate(() => localStorage.getItem("diginoor.polling"))).toBe("off");
    // From here on, count what the page asks the API for this order: only events make it ask.
    const orderReads: number[] = [];
    page.on("request", (r) => {
      if (new URL(r.url()).pathname === `/api/v1/orders/${orderId}`) orderReads.push(Date.now());
    });

    // The test hears the same events as the page, on a stream of its own.
    const cookie = (await context.cookies()).map((c) => `${c.name}=${c.value}`).join("; ");
    const events = await listen(new URL(page.url()).origin, cookie);
    stopListening = events.close;

    const confirmedEvent = events.when(
      (e) => e.type === "order.updated" && (e.data as { state: string }).state === "fulfilled",
    );
    const notifiedEvent = events.when(
      (e) =>
        e.type === "notification" && (e.data as NotificationEvent).notification.kind === "purchase_confirmed",
    );
    const confirmedShown = shownAt(page, "h1, h2", "Your NFT is in your wallet!");
    const countShown = shownAt(page, 'button[aria-label="Notifications, 1 unread"]');

    // Paid on the provider's page, in another browser: webhooks → paid → minting → fulfilled.
    const pay = await payer.newPage();
    await pay.goto(checkoutUrl);
    await pay.getByRole("button", { name: /^Pay / }).click();

    const confirmed = await latency(confirmedEvent, confirmedShown);
    test
      .info()
      .annotations.push({ type: "confirmation page, ms after the event", description: String(confirmed) });
    expect(
      confirmed,
      "the confirmation page showed the fulfilled order (ms after the server's order.updated)",
    ).toBeLessThan(LIVE_BUDGET_MS);
    await expect(page.getByRole("heading", { name: "Your NFT is in your wallet!" })).toBeVisible();
    await expect(page.getByText("In your wallet", { exact: true })).toBeVisible();
    // Each read followed an order.updated (paid, minting, fulfilled; the sandbox's second webhook
    // changes nothing): no polling.
    expect(orderReads.length).toBeGreaterThan(0);
    expect(orderReads.length).toBeLessThanOrEqual(4);

    // The purchase's notification (stored by a job after the order is fulfilled) reaches the bell.
    const counted = await latency(notifiedEvent, countShown);
    test.info().annotations.push({ type: "bell, ms after the event", description: String(counted) });
    expect(
      counted,
      "the bell counted the notification (ms after the server's notification event)",
    ).toBeLessThan(LIVE_BUDGET_MS);
    await page.getByRole("button", { name: "Notifications, 1 unread" }).click();
    await expect(page.getByRole("region", { name: "Notifications" })).toContainText(
      `${nft.title} is in your wallet.`,
    );
    await shotsAtBothWidths(page, "live-events-confirmed");
    expectNoProblems(watch);
  } finally {
    stopListening();
    await payer.close();
    await context.close();
  }
});
