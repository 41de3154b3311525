import { sql } from "drizzle-orm";
import type { Address } from "viem";
import type { Db } from "../db/client.ts";
import { rowsOf } from "../lib/rate-limit.ts";

export interface ChainDeployment {
  chainId: number;
  collectible: Address;
  marketplace: Address;
  deployer: Address;
  minter: Address;
  treasury: Address;
  blockNumber: bigint;
}

interface Row {
  chain_id: number;
  collectible: string;
  marketplace: string;
  deployer: string;
  minter: string;
  treasury: string;
  block_number: string | number;
}

/** The newest recorded deployment on `chainId`, if any. */
export async function latestDeployment(db: Db, chainId: number): Promise<ChainDeployment | undefined> {
  const rows = rowsOf<Row>(
    await db.execute(
      sql`SELECT * FROM chain_deployments WHERE chain_id = ${chainId} ORDER BY deployed_at DESC LIMIT 1`,
    ),
  );
  const r = rows[0];
  if (!r) return undefined;
  return {
    chainId: r.chain_id,
    collectible: r.collectible as Address,
    marketplace: r.marketplace as Address,
    deployer: r.deployer as Address,
    minter: r.minter as Address,
    treasury: r.treasury as Address,
    blockNumber: BigInt(r.block_number),
  };
}

export async function recordDeployment(db: Db, d: ChainDeployment): Promise<void> {
  await db.execute(sql`
    INSERT INTO chain_deployments (chain_id, collectible, marketplace, deployer, minter, treasury, block_number)
    VALUES (${d.chainId}, ${d.collectible}, ${d.marketplace}, ${d.deployer}, ${d.minter}, ${d.treasury}, ${d.blockNumber.toString()})
    ON CONFLICT (chain_id, collectible) DO NOTHING`);
}
