import { BaseError } from "viem";

/**
 * Whether an error means the database cannot be reached right now (it is restarting, down, or the
 * connection dropped), as opposed to a bug: such requests answer 503 with a clear message and a
 * Retry-After, and succeed again by themselves once it is back (the pool opens new connections).
 */
const CONNECTION_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "EPIPE",
  "ETIMEDOUT",
  "ENOTFOUND",
  "EAI_AGAIN",
  // SQLSTATE class 08 (connection exception) and 57P0x (admin shutdown, crash shutdown, cannot connect now).
  "08000",
  "08001",
  "08003",
  "08004",
  "08006",
  "57P01",
  "57P02",
  "57P03",
]);
const CONNECTION_MESSAGES = [
  /Connection terminated/i,
  /timeout exceeded when trying to connect/i,
  /Client has encountered a connection error/i,
  /the database system is (starting up|shutting down|in recovery mode)/i,
];

export function isDatabaseUnavailable(err: unknown): boolean {
  for (let e = err, depth = 0; e && depth < 6; e = (e as { cause?: unknown }).cause, depth++) {
    const { code, message } = e as { code?: unknown; message?: unknown };
    if (typeof code === "string" && CONNECTION_CODES.has(code)) return true;
    if (typeof message === "string" && CONNECTION_MESSAGES.some((m) => m.test(message))) return true;
    if (e instanceof AggregateError && e.errors.some(isDatabaseUnavailable)) return true;
  }
  return false;
}

/** viem's errors for an RPC endpoint that cannot be reached or does not answer in time. */
const RPC_ERROR_NAMES = new Set([
  "HttpRequestError",
  "TimeoutError",
  "WebSocketRequestError",
  "SocketClosedError",
]);

/**
 * Whether an error means the chain's RPC endpoint(s) cannot be reached: a request that needed the
 * chain there and then (a wallet checkout reads the chain's time and the market's terms) answers 503
 * "Crypto payments are paused, try again shortly"; card payments, browsing and accounts do not need it.
 */
export function isChainUnavailable(err: unknown): boolean {
  for (let e = err, depth = 0; e && depth < 6; e = (e as { cause?: unknown }).cause, depth++) {
    // viem's own errors (its BaseError: `version` is viem's bare version number, e.g. "2.57.20", so
    // the earlier test for a "viem@" prefix never matched and a wallet checkout without RPC answered
    // the database's 503 message; found by test/fault-rpc.test.ts).
    if (e instanceof BaseError && RPC_ERROR_NAMES.has(e.name)) return true;
  }
  return false;
}
