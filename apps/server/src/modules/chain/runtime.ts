import fs from "node:fs";
import path from "node:path";
import { startAnvil } from "@diginoor/contracts/anvil";
import { DEV_CHAIN_IDS, deployAll, PRODUCTION_ROLES_HINT } from "@diginoor/contracts/deploy";
import { ANVIL_DEPLOYER_PRIVATE_KEY } from "@diginoor/contracts/anvil-accounts";
import { type Address, createPublicClient, type Hex, http, type LocalAccount, type PublicClient } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import type { Config } from "../../config.ts";
import type { Db } from "../../db/client.ts";
import { type ChainDeployment, latestDeployment, recordDeployment } from "./deployments.ts";

/** The chain the server talks to, with our contracts' addresses. */
export interface ChainRuntime {
  chainId: number;
  rpcUrl: string;
  /** True when the server started its own anvil. */
  local: boolean;
  deployment: ChainDeployment;
  publicClient: PublicClient;
  /**
   * The hot keys the server signs with, when it has them: the voucher signer (SIGNER_ROLE, signs
   * primary-sale vouchers) and the minter (MINTER_ROLE, mints and opens primary auctions). On the
   * local chain they default to the deployer, like the deployment's roles.
   */
  signer?: LocalAccount;
  minter?: LocalAccount;
  stop(): Promise<void>;
}

const LOCAL_CHAIN_ID = 31337;
const PREFERRED_LOCAL_PORT = 8545;

async function hasCode(client: PublicClient, a: Address): Promise<boolean> {
  const code = await client.getCode({ address: a }).catch(() => undefined);
  return !!code && code !== "0x";
}

/**
 * Connects to the configured chain, or starts anvil (state persisted under DATA_DIR) and deploys
 * our contracts once, recording the deployment in the database so later starts reuse it.
 */
export async function startChain(
  config: Config,
  db: Db,
  log: (msg: string) => void,
): Promise<ChainRuntime | undefined> {
  if (config.CHAIN_DISABLED) return undefined;
  const local = !config.CHAIN_RPC_URL;
  let rpcUrl = config.CHAIN_RPC_URL ?? "";
  let stop = async () => {};
  if (local) {
    const statePath = config.paths.anvilState;
    fs.mkdirSync(path.dirname(statePath), { recursive: true });
    // Wallets expect a local chain on 8545; startAnvil refuses a port another process holds.
    const anvil = await startAnvil({ port: PREFERRED_LOCAL_PORT, chainId: LOCAL_CHAIN_ID, statePath }).catch(
      () => startAnvil({ chainId: LOCAL_CHAIN_ID, statePath }),
    );
    rpcUrl = anvil.rpcUrl;
    stop = anvil.stop;
    log(`Local chain (anvil) at ${rpcUrl}, chain id ${anvil.chainId}`);
  }
  const publicClient = createPublicClient({ transport: http(rpcUrl) }) as PublicClient;
  try {
    const chainId = await publicClient.getChainId();
    if (config.CHAIN_ID && config.CHAIN_ID !== chainId) {
      throw new Error(`CHAIN_ID is ${config.CHAIN_ID} but ${rpcUrl} is chain ${chainId}`);
    }
    let deployment: ChainDeployment | undefined;
    if (config.CHAIN_DEPLOYMENT) {
      deployment = config.CHAIN_DEPLOYMENT;
      if (deployment.chainId !== chainId) {
        throw new Error(
          `CHAIN_DEPLOYMENT is for chain ${deployment.chainId}, but ${rpcUrl} is chain ${chainId}`,
        );
      }
      await recordDeployment(db, deployment);
    } else {
      deployment = await latestDeployment(db, chainId);
    }
    if (deployment && !(await hasCode(publicClient, deployment.collectible))) {
      if (!local) throw new Error(`No contract code at ${deployment.collectible} on chain ${chainId}`);
      log("Recorded contracts are missing on the local chain (its state was reset); deploying again");
      deployment = undefined;
    }
    if (!deployment) {
      if (!local && !(config.DEPLOYER_PRIVATE_KEY && DEV_CHAIN_IDS.includes(chainId))) {
        // Outside a development chain the roles need four different addresses (a multisig admin among
        // them): the deploy script takes them; the server never deploys there with its own keys.
        throw new Error(
          DEV_CHAIN_IDS.includes(chainId)
            ? "No contracts recorded for this chain: run `npm run deploy -w packages/contracts -- --rpc <url>` and set CHAIN_DEPLOYMENT to the JSON it prints, or set DEPLOYER_PRIVATE_KEY"
            : `No contracts recorded for chain ${chainId}: run \`npm run deploy -w packages/contracts -- --rpc <url>\` (${PRODUCTION_ROLES_HINT}) and set CHAIN_DEPLOYMENT to the JSON it prints`,
        );
      }
      const addressOf = (key: string | undefined) =>
        key ? privateKeyToAccount(key as `0x${string}`).address : undefined;
      const deployed = await deployAll({
        rpcUrl,
        deployerPrivateKey: config.DEPLOYER_PRIVATE_KEY as `0x${string}` | undefined,
        minterAddress: addressOf(config.MINTER_PRIVATE_KEY),
        signerAddress: addressOf(config.VOUCHER_SIGNER_PRIVATE_KEY),
        metadataBaseUri: `${config.PUBLIC_URL}/api/v1/metadata/`,
      });
      deployment = deployed;
      await recordDeployment(db, deployment);
      log(`Deployed contracts: collectible ${deployment.collectible}, marketplace ${deployment.marketplace}`);
    }
    const key = (k: string | undefined) =>
      k ? privateKeyToAccount(k as Hex) : local ? privateKeyToAccount(ANVIL_DEPLOYER_PRIVATE_KEY) : undefined;
    const signer = key(config.VOUCHER_SIGNER_PRIVATE_KEY ?? config.DEPLOYER_PRIVATE_KEY);
    const minter = key(config.MINTER_PRIVATE_KEY ?? config.DEPLOYER_PRIVATE_KEY);
    return { chainId, rpcUrl, local, deployment, publicClient, signer, minter, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}
