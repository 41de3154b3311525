import { sql } from "drizzle-orm";
import type { Address } from "viem";
import type { Db } from "../../db/client.ts";
import { rowsOf } from "../../lib/rate-limit.ts";

export interface ChainDeployment {
  chainId: number;
  collectible: Address;
  marketplace: Address;
  deployer: Address;
  /** Holder of the contracts' admin role (two-step transfers). */
  admin: Address;
  /** Holder of MINTER_ROLE on the collectible (card/INR orders). */
  minter: Address;
  /** Holder of SIGNER_ROLE on the marketplace (voucher signer); a key apart from the minter's. */
  signer: Address;
  treasury: Address;
  blockNumber: bigint;
  /** Passkey wallets (decision 160): our ERC-4337 account factory and paymaster, when deployed. */
  accountFactory?: Address;
  paymaster?: Address;
}

interface Row {
  chain_id: number;
  collectible: string;
  marketplace: string;
  deployer: string;
  admin: string;
  minter: string;
  signer: string;
  treasury: string;
  block_number: string | number;
  account_factory: string | null;
  paymaster: string | null;
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
    admin: r.admin as Address,
    minter: r.minter as Address,
    signer: r.signer as Address,
    treasury: r.treasury as Address,
    blockNumber: BigInt(r.block_number),
    accountFactory: (r.account_factory ?? undefined) as Address | undefined,
    paymaster: (r.paymaster ?? undefined) as Address | undefined,
  };
}

export async function recordDeployment(db: Db, d: ChainDeployment): Promise<void> {
  await db.execute(sql`
    INSERT INTO chain_deployments (chain_id, collectible, marketplace, deployer, admin, minter, signer, treasury, block_number, account_factory, paymaster)
    VALUES (${d.chainId}, ${d.collectible}, ${d.marketplace}, ${d.deployer}, ${d.admin}, ${d.minter}, ${d.signer}, ${d.treasury}, ${d.blockNumber.toString()}, ${d.accountFactory ?? null}, ${d.paymaster ?? null})
    ON CONFLICT (chain_id, collectible) DO UPDATE SET
      account_factory = COALESCE(EXCLUDED.account_factory, chain_deployments.account_factory),
      paymaster = COALESCE(EXCLUDED.paymaster, chain_deployments.paymaster)`);
}
