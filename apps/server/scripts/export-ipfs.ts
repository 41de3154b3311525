// `npm run export:ipfs -- --out <file.car>`: a CAR of every minted token's ERC-721 metadata and media,
// laid out as <root>/metadata/<tokenId> and <root>/media/<cid><ext> (decision 173); prints the root CID
// to pin, and to give the console's "Exit to IPFS" (POST /api/v1/admin/chain/ipfs-exit). It reads the
// configured database (with the embedded PGlite one, stop the server first, as for a backup) and the
// chain's deployment; the tokens are those the indexer has applied.
import { parseArgs } from "node:util";
import { bootstrap } from "../src/bootstrap.ts";
import { loadConfigOrExit } from "../src/config.ts";

async function main(): Promise<number> {
  const { values } = parseArgs({ args: process.argv.slice(2), options: { out: { type: "string" } } });
  if (!values.out) {
    console.error("usage: npm run export:ipfs -- --out <file.car>");
    return 2;
  }
  const config = loadConfigOrExit();
  if (config.CHAIN_DISABLED) {
    console.error("CHAIN_DISABLED=1: there is no chain, so no token to export");
    return 1;
  }
  const ctx = await bootstrap(config, { log: (m) => console.error(m) });
  try {
    const started = Date.now();
    const r = await ctx.services.portability.exportCar(values.out);
    console.error(
      `Wrote ${values.out}: ${r.tokens} token metadata files, ${r.media} media files, ${r.blocks} blocks, ${r.bytes} bytes, in ${Date.now() - started} ms.`,
    );
    for (const url of r.external) console.error(`Not ours, left as its URL in the metadata: ${url}`);
    console.error(
      `Pin it (ipfs dag import ${values.out}, or a pinning service's CAR upload), then use the root below in the console's Chain section.`,
    );
    console.log(r.root);
    return 0;
  } finally {
    await ctx.close();
  }
}

main().then(
  (code) => process.exit(code),
  (err) => {
    console.error(err instanceof Error ? err.message : err);
    process.exit(1);
  },
);
