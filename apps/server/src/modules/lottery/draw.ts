// The lottery's commit-reveal draw (decision 161): pure functions, shared by the server (which draws)
// and `npm run lottery:verify` (which recomputes everything from the public API). No database here.
import { createHash } from "node:crypto";

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
  const lines: string[] = [];
  for (const r of ranges) lines.push(`${r.first},${r.last},${holderOf(r.orderId)}\n`);
  return Buffer.from(lines.join(""), "utf8");
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

/** The parsed list: ranges in order, and what is wrong with it (contiguity from 1, format). */
export function parseTicketsCsv(csv: Buffer | string): {
  ranges: { first: number; last: number; holder: string }[];
  total: number;
  problems: string[];
} {
  const text = typeof csv === "string" ? csv : csv.toString("utf8");
  const problems: string[] = [];
  const ranges: { first: number; last: number; holder: string }[] = [];
  if (text.length > 0 && !text.endsWith("\n")) problems.push("tickets.csv does not end with a newline");
  const lines = text.split("\n");
  lines.pop(); // after the final newline
  let expected = 1;
  for (let i = 0; i < lines.length; i++) {
    const m = /^(\d{1,15}),(\d{1,15}),([0-9a-f]{64})$/.exec(lines[i] as string);
    if (!m) {
      problems.push(`tickets.csv line ${i + 1} is not "first,last,holder"`);
      if (problems.length > 10) break;
      continue;
    }
    const first = Number(m[1]);
    const last = Number(m[2]);
    if (first !== expected)
      problems.push(`tickets.csv line ${i + 1}: starts at ticket ${first}, expected ${expected}`);
    if (last < first) problems.push(`tickets.csv line ${i + 1}: ends (${last}) before it starts (${first})`);
    ranges.push({ first, last, holder: m[3] as string });
    expected = last + 1;
    if (problems.length > 10) break;
  }
  return { ranges, total: expected - 1, problems };
}

/** The parts of GET /api/v1/lotteries/{id} the verification reads. */
export interface PublicLottery {
  id: string;
  state: string;
  ticketsSold: number;
  seedHash: string;
  drawBlocks: number;
  closeBlock: number | null;
  ticketListHash: string | null;
  draw: {
    seed: string;
    blockNumber: number;
    blockHash: string;
    ticketListHash: string;
    winningTicket: number;
  } | null;
}

export interface Verification {
  ok: boolean;
  /** Each check with what was expected and found. */
  checks: { name: string; ok: boolean; detail: string }[];
  recomputedWinningTicket: number | null;
}

/**
 * Recomputes a drawn lottery from its public record, its tickets.csv bytes and (when one could be
 * read) the block hash the chain itself reports for the draw's block.
 */
export function verifyDraw(lottery: PublicLottery, csv: Buffer, chainBlockHash: string | null): Verification {
  const checks: Verification["checks"] = [];
  const check = (name: string, ok: boolean, detail: string) => checks.push({ name, ok, detail });
  const draw = lottery.draw;
  if (lottery.state !== "drawn" || !draw) {
    check("drawn", false, `the lottery is ${lottery.state}, not drawn`);
    return { ok: false, checks, recomputedWinningTicket: null };
  }
  let recomputed: number | null = null;
  try {
    const seed = fromHex32(draw.seed, "seed");
    const seedHash = toHex(sha256(seed));
    check(
      "seed",
      seedHash === lottery.seedHash.toLowerCase(),
      `sha256(seed) = ${seedHash}; published before the sale: ${lottery.seedHash}`,
    );
    const listHash = toHex(sha256(csv));
    check(
      "ticket list",
      listHash === draw.ticketListHash.toLowerCase() &&
        (lottery.ticketListHash === null || listHash === lottery.ticketListHash.toLowerCase()),
      `sha256(tickets.csv) = ${listHash}; published: ${draw.ticketListHash}`,
    );
    const parsed = parseTicketsCsv(csv);
    check(
      "ticket ranges",
      parsed.problems.length === 0 && parsed.total === lottery.ticketsSold,
      parsed.problems.length > 0
        ? parsed.problems.join("; ")
        : `${parsed.ranges.length} orders, tickets 1..${parsed.total} without gap; ticketsSold = ${lottery.ticketsSold}`,
    );
    const firstUsable = lottery.closeBlock === null ? null : lottery.closeBlock + lottery.drawBlocks;
    check(
      "block",
      firstUsable !== null && draw.blockNumber === firstUsable,
      `block ${draw.blockNumber}; closing block ${lottery.closeBlock} + ${lottery.drawBlocks} = ${firstUsable}`,
    );
    if (chainBlockHash !== null) {
      check(
        "block hash",
        chainBlockHash.toLowerCase() === draw.blockHash.toLowerCase(),
        `the chain says block ${draw.blockNumber} is ${chainBlockHash}; published: ${draw.blockHash}`,
      );
    }
    const w = winningTicket(
      seed,
      fromHex32(draw.blockHash, "blockHash"),
      fromHex32(draw.ticketListHash, "ticketListHash"),
      BigInt(lottery.ticketsSold),
    );
    recomputed = Number(w);
    check(
      "winning ticket",
      recomputed === draw.winningTicket,
      `1 + (sha256(seed ‖ blockHash ‖ ticketListHash) mod ${lottery.ticketsSold}) = ${recomputed}; published: ${draw.winningTicket}`,
    );
  } catch (err) {
    check("format", false, (err as Error).message);
  }
  return { ok: checks.every((c) => c.ok), checks, recomputedWinningTicket: recomputed };
}
