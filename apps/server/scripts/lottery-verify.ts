// npm run lottery:verify -- <base URL> <lottery id> [--rpc <chain RPC URL>]
//
// Recomputes a lottery's draw from the public API alone (no database, no secret): the seed against
// the hash published before the sale, tickets.csv against its published hash and against the
// tickets sold (contiguous 1..N), the draw's block number against the closing block + N, the block
// hash against the chain (the RPC named by --rpc, or the one GET /api/v1/chain gives for a local
// development chain), and the winning ticket. Exits 0 when everything matches, 1 naming what differs,
// 2 when it could not read what it needs.
import { type PublicLottery, verifyDraw } from "../src/modules/lottery/draw.ts";

async function main(argv: string[]): Promise<number> {
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
  const get = async (path: string) => {
    const res = await fetch(`${root}${path}`, { headers: { "accept-encoding": "identity" } });
    if (!res.ok) throw new Error(`GET ${path}: HTTP ${res.status} ${(await res.text()).slice(0, 200)}`);
    return res;
  };
  let lottery: PublicLottery;
  let csv: Buffer;
  try {
    lottery = (await (await get(`/api/v1/lotteries/${encodeURIComponent(id)}`)).json()) as PublicLottery;
    csv = Buffer.from(
      await (await get(`/api/v1/lotteries/${encodeURIComponent(id)}/tickets.csv`)).arrayBuffer(),
    );
  } catch (err) {
    console.error(`could not read the lottery: ${(err as Error).message}`);
    return 2;
  }
  let chainBlockHash: string | null = null;
  let rpc = rpcArg ?? null;
  if (!rpc) {
    const chain = (await get("/api/v1/chain")
      .then((r) => r.json())
      .catch(() => null)) as { rpcUrl?: string | null } | null;
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
          params: [`0x${lottery.draw.blockNumber.toString(16)}`, false],
        }),
      });
      const body = (await res.json()) as { result?: { hash?: string } | null };
      chainBlockHash = body.result?.hash ?? null;
      if (!chainBlockHash) console.log(`! the chain at ${rpc} has no block ${lottery.draw.blockNumber}`);
    } catch (err) {
      console.log(`! could not ask the chain at ${rpc}: ${(err as Error).message}`);
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

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err) => {
    console.error(err);
    process.exit(2);
  },
);
