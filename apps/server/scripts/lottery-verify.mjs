#!/usr/bin/env node
// npm run lottery:verify -- <base URL> <lottery id> [--rpc <chain RPC URL>]
// (or: node apps/server/scripts/lottery-verify.mjs <base URL> <lottery id> [--rpc <url>])
//
// Recomputes a lottery's draw from the public API alone (no database, no secret, nothing of the
// server's code: plain JavaScript on Node's own crypto, so anyone can read all of it and it starts in
// a blink): the seed against the hash published before the sale, tickets.csv against its published
// hash and against the tickets sold (contiguous 1..N), the draw's block number against the closing
// block + N, the block hash against the chain (the RPC named by --rpc, or the one GET /api/v1/chain
// gives for a local development chain), and the winning ticket:
//   winningTicket = 1 + (uint256(sha256(seed ‖ blockHash ‖ ticketListHash)) mod ticketsSold)
// Exits 0 when everything matches, 1 naming what differs, 2 when it could not read what it needs.
import { createHash } from "node:crypto";
import { pathToFileURL } from "node:url";

const sha256 = (data) => createHash("sha256").update(data).digest();
const hex = (b) => `0x${Buffer.from(b).toString("hex")}`;

function fromHex32(value, what) {
  if (typeof value !== "string" || !/^0x[0-9a-fA-F]{64}$/.test(value))
    throw new Error(`${what} is not 0x-prefixed 32-byte hex`);
  return Buffer.from(value.slice(2), "hex");
}

/**
 * tickets.csv parsed: one line per paid order in ticket order, `first,last,holder\n` (holder: 64 hex
 * digits), ranges contiguous from 1. Returns the ranges, the last ticket, and what is wrong.
 */
export function parseTicketsCsv(csv) {
  const text = typeof csv === "string" ? csv : Buffer.from(csv).toString("utf8");
  const problems = [];
  const ranges = [];
  if (text.length > 0 && !text.endsWith("\n")) problems.push("tickets.csv does not end with a newline");
  const lines = text.split("\n");
  lines.pop(); // after the final newline
  const line = /^(\d{1,15}),(\d{1,15}),([0-9a-f]{64})$/;
  let expected = 1;
  for (let i = 0; i < lines.length; i++) {
    const m = line.exec(lines[i]);
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
    ranges.push({ first, last, holder: m[3] });
    expected = last + 1;
    if (problems.length > 10) break;
  }
  return { ranges, total: expected - 1, problems };
}

/**
 * Recomputes a drawn lottery from its public record (GET /api/v1/lotteries/{id}), the bytes of its
 * tickets.csv and, when one could be read, the block hash the chain itself reports for the draw's block.
 */
export function verifyDraw(lottery, csv, chainBlockHash) {
  const checks = [];
  const check = (name, ok, detail) => checks.push({ name, ok, detail });
  const draw = lottery.draw;
  if (lottery.state !== "drawn" || !draw) {
    check("drawn", false, `the lottery is ${lottery.state}, not drawn`);
    return { ok: false, checks, recomputedWinningTicket: null };
  }
  let recomputed = null;
  try {
    const seed = fromHex32(draw.seed, "seed");
    const seedHash = hex(sha256(seed));
    check(
      "seed",
      seedHash === String(lottery.seedHash).toLowerCase(),
      `sha256(seed) = ${seedHash}; published before the sale: ${lottery.seedHash}`,
    );
    const listHash = hex(sha256(csv));
    check(
      "ticket list",
      listHash === String(draw.ticketListHash).toLowerCase() &&
        (lottery.ticketListHash == null || listHash === lottery.ticketListHash.toLowerCase()),
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
    const firstUsable = lottery.closeBlock == null ? null : lottery.closeBlock + lottery.drawBlocks;
    check(
      "block",
      firstUsable !== null && draw.blockNumber === firstUsable,
      `block ${draw.blockNumber}; closing block ${lottery.closeBlock} + ${lottery.drawBlocks} = ${firstUsable}`,
    );
    if (chainBlockHash !== null) {
      check(
        "block hash",
        chainBlockHash.toLowerCase() === String(draw.blockHash).toLowerCase(),
        `the chain says block ${draw.blockNumber} is ${chainBlockHash}; published: ${draw.blockHash}`,
      );
    }
    const blockHash = fromHex32(draw.blockHash, "blockHash");
    const listHashPublished = fromHex32(draw.ticketListHash, "ticketListHash");
    if (!(lottery.ticketsSold >= 1)) throw new Error("a draw needs at least one ticket sold");
    const digest = sha256(Buffer.concat([seed, blockHash, listHashPublished]));
    recomputed = Number(1n + (BigInt(hex(digest)) % BigInt(lottery.ticketsSold)));
    check(
      "winning ticket",
      recomputed === draw.winningTicket,
      `1 + (sha256(seed ‖ blockHash ‖ ticketListHash) mod ${lottery.ticketsSold}) = ${recomputed}; published: ${draw.winningTicket}`,
    );
  } catch (err) {
    check("format", false, err.message);
  }
  return { ok: checks.every((c) => c.ok), checks, recomputedWinningTicket: recomputed };
}

async function main(argv) {
  const args = argv.filter((a) => a !== "--");
  const rpcAt = args.indexOf("--rpc");
  const rpcArg = rpcAt >= 0 ? args[rpcAt + 1] : undefined;
  if (rpcAt >= 0) args.splice(rpcAt, 2);
  const [base, id] = args;
  if (!base || !id) {
    console.error("usage: npm run lottery:verify -- <base URL> <lottery id> [--rpc <chain RPC URL>]");
    return 2;
  }
  const root = base.replace(/\/+$/, "");
  const get = async (path) => {
    const res = await fetch(`${root}${path}`, { headers: { "accept-encoding": "identity" } });
    if (!res.ok) throw new Error(`GET ${path}: HTTP ${res.status} ${(await res.text()).slice(0, 200)}`);
    return res;
  };
  const at = `/api/v1/lotteries/${encodeURIComponent(id)}`;
  let lottery;
  let csv;
  try {
    // Both reads at once: the record and the list.
    const [record, list] = await Promise.all([get(at), get(`${at}/tickets.csv`)]);
    lottery = await record.json();
    csv = Buffer.from(await list.arrayBuffer());
  } catch (err) {
    console.error(`could not read the lottery: ${err.message}`);
    return 2;
  }
  let chainBlockHash = null;
  let rpc = rpcArg ?? null;
  if (!rpc) {
    const chain = await get("/api/v1/chain")
      .then((r) => r.json())
      .catch(() => null);
    rpc = chain?.rpcUrl ?? null;
  }
  if (rpc && lottery.draw) {
    try {
      const res = await fetch(rpc, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({
          jsonrpc: "2.0",
          id: 1,
          method: "eth_getBlockByNumber",
          params: [`0x${Number(lottery.draw.blockNumber).toString(16)}`, false],
        }),
      });
      const body = await res.json();
      chainBlockHash = body.result?.hash ?? null;
      if (!chainBlockHash) console.log(`! the chain at ${rpc} has no block ${lottery.draw.blockNumber}`);
    } catch (err) {
      console.log(`! could not ask the chain at ${rpc}: ${err.message}`);
    }
  }
  const result = verifyDraw(lottery, csv, chainBlockHash);
  for (const c of result.checks) console.log(`${c.ok ? "ok      " : "MISMATCH"} ${c.name}: ${c.detail}`);
  if (chainBlockHash === null)
    console.log("-        block hash: not checked against the chain (pass --rpc <url> to check it)");
  if (chainBlockHash === null && rpc && lottery.draw) {
    console.log("MISMATCH block hash: the chain could not confirm the draw's block");
    return 1;
  }
  console.log(
    result.ok
      ? `lottery ${id}: the draw verifies; winning ticket ${result.recomputedWinningTicket}`
      : `lottery ${id}: the draw does NOT verify`,
  );
  return result.ok ? 0 : 1;
}

// Run as a command (not when the benchmark or a test imports verifyDraw from here).
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (err) => {
      console.error(err);
      process.exit(2);
    },
  );
}
