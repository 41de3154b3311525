import type { Hex } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { createSiweMessage } from "viem/siwe";
import { expect } from "vitest";
import type { Clock } from "../src/platform/clock.ts";
import { newSignedInUser } from "./factories.ts";
import type { TestApp } from "./harness.ts";

export { seedStudioFilmAndStar } from "./card-orders.ts";

/** Shared by the HTTP + anvil tests of commerce (wallet and card orders). */

export type ApiCall = <T = Record<string, unknown>>(
  method: "GET" | "POST" | "DELETE",
  url: string,
  cookie?: string,
  payload?: object,
) => Promise<{ status: number; body: T }>;

/** JSON requests to the app under test, with a session cookie. */
export function httpApi(app: () => TestApp["app"]): ApiCall {
  return async (method, url, cookie, payload) => {
    const res = await app().inject({
      method,
      url,
      headers: cookie ? { cookie } : {},
      ...(payload ? { payload } : {}),
    });
    return { status: res.statusCode, body: res.json() };
  };
}

/** A signed-in user whose wallet `key` is linked (Sign-In with Ethereum, as the wallet page does it). */
export async function linkedBuyer(
  t: TestApp,
  o: { api: ApiCall; clock: Clock; publicUrl: string },
  key: Hex,
) {
  const account = privateKeyToAccount(key);
  const { cookie, user } = await newSignedInUser(t.ctx);
  const nonce = (await o.api<{ nonce: string }>("POST", "/api/v1/wallets/nonce", cookie)).body.nonce;
  const issuedAt = new Date(o.clock.now());
  const message = createSiweMessage({
    address: account.address,
    chainId: t.ctx.chain!.chainId,
    domain: new URL(o.publicUrl).host,
    uri: o.publicUrl,
    nonce,
    version: "1",
    issuedAt,
    expirationTime: new Date(issuedAt.getTime() + 5 * 60_000),
  });
  const linked = await o.api("POST", "/api/v1/wallets", cookie, {
    message,
    signature: await account.signMessage({ message }),
  });
  expect(linked.status, JSON.stringify(linked.body)).toBe(201);
  return { account, cookie, email: user.email };
}

/** Polls `read` until `ok` (every 50 ms, at most `ms`). */
export async function until<T>(
  what: string,
  read: () => Promise<T>,
  ok: (v: T) => boolean,
  ms = 5000,
): Promise<T> {
  const start = Date.now();
  let last: T | undefined;
  while (Date.now() - start < ms) {
    last = await read();
    if (ok(last)) return last;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`${what} did not happen within ${ms} ms: ${JSON.stringify(last)}`);
}
