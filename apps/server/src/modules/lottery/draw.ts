// The lottery's commit-reveal draw (decision 161): pure functions the server draws with. No database
// here. `npm run lottery:verify` (scripts/lottery-verify.mjs) recomputes the draw on its own, in plain
// JavaScript from the public API, sharing nothing with this file.
import { createHash } from "node:crypto";
import { toCsv } from "../../lib/csv.ts";

export function sha256(data: Uint8Array | string): Buffer {
  return createHash("sha256").update(data).digest();
}

export const toHex = (b: Uint8Array): `0x${string}` => `0x${Buffer.from(b).toString("hex")}`;

export function fromHex32(hex: string, what: string): Buffer {
  if (!/^0x[0-9a-fA-F]{64}$/.test(hex)) throw new Error(`${what} is not 0x-prefixed 32-byte hex`);
  return Buffer.from(hex.slice(2), "hex");
}

/** A paid ticket order's range of ticket numbers. */
export interface TicketRange {
  first: number;
  last: number;
  orderId: string;
}

/** The holder column: the hex sha256 of the order id as text (no names). */
export const holderOf = (orderId: string) => sha256(orderId).toString("hex");

/**
 * tickets.csv: one line per paid order in ticket order, `first,last,holder\n` (no header). The ranges
 * must already be sorted by `first`.
 */
export function ticketsCsv(ranges: Iterable<TicketRange>): Buffer {
  const rows: [number, number, string][] = [];
  for (const r of ranges) rows.push([r.first, r.last, holderOf(r.orderId)]);
  return Buffer.from(toCsv(rows, { eol: "\n" }), "utf8");
}

/** winningTicket = 1 + (uint256(sha256(seed ‖ blockHash ‖ ticketListHash)) mod ticketsSold). */
export function winningTicket(
  seed: Uint8Array,
  blockHash: Uint8Array,
  ticketListHash: Uint8Array,
  ticketsSold: bigint,
): bigint {
  if (seed.length !== 32 || blockHash.length !== 32 || ticketListHash.length !== 32)
    throw new Error("the seed and both hashes must be 32 bytes each");
  if (ticketsSold < 1n) throw new Error("a draw needs at least one ticket");
  const digest = sha256(Buffer.concat([seed, blockHash, ticketListHash]));
  return 1n + (BigInt(toHex(digest)) % ticketsSold);
}
