// Ponder 0.16 on the chain `npm run bench:indexer` generates: the same two contracts, the same block
// range as our indexer. Everything comes from the environment the bench sets (PONDER_*); PostgreSQL
// when DATABASE_URL is set, else PGlite in PONDER_PGLITE_DIR.
import { createConfig } from "ponder";
import { diginoorCollectibleAbi } from "../../../../packages/contracts/generated/diginoorCollectible";
import { diginoorMarketplaceAbi } from "../../../../packages/contracts/generated/diginoorMarketplace";

// Each variable by its own name: Ponder's bundler (vite) replaces `process.env.NAME` expressions only.
const required = (name: string, value: string | undefined): string => {
  if (!value) throw new Error(`${name} is not set (the bench sets it)`);
  return value;
};
const startBlock = Number(required("PONDER_START_BLOCK", process.env.PONDER_START_BLOCK));
const endBlock = Number(required("PONDER_END_BLOCK", process.env.PONDER_END_BLOCK));

export default createConfig({
  database: process.env.DATABASE_URL
    ? { kind: "postgres", connectionString: process.env.DATABASE_URL }
    : { kind: "pglite", directory: required("PONDER_PGLITE_DIR", process.env.PONDER_PGLITE_DIR) },
  chains: { anvil: { id: 31337, rpc: required("PONDER_RPC_URL", process.env.PONDER_RPC_URL) } },
  contracts: {
    Collectible: {
      chain: "anvil",
      abi: diginoorCollectibleAbi,
      address: required("PONDER_COLLECTIBLE", process.env.PONDER_COLLECTIBLE) as `0x${string}`,
      startBlock,
      endBlock,
    },
    Marketplace: {
      chain: "anvil",
      abi: diginoorMarketplaceAbi,
      address: required("PONDER_MARKETPLACE", process.env.PONDER_MARKETPLACE) as `0x${string}`,
      startBlock,
      endBlock,
    },
  },
});
