import fs from "node:fs";
import path from "node:path";
import { startAnvil } from "@diginoor/contracts/anvil";
import { ANVIL_DEPLOYER_PRIVATE_KEY, ANVIL_PRIVATE_KEYS } from "@diginoor/contracts/anvil-accounts";
import { startBundler } from "@diginoor/contracts/bundler";
import { DEV_CHAIN_IDS, deployAll, PRODUCTION_ROLES_HINT } from "@diginoor/contracts/deploy";
import { diginoorPaymasterAbi } from "@diginoor/contracts/generated/diginoorPaymaster";
import { deployWallets, ENTRYPOINT_ADDRESS, stakeInfo, stakeProblem } from "@diginoor/contracts/wallets";
import {
  type Address,
  createPublicClient,
  type Hex,
  type LocalAccount,
  keccak256,
  type PublicClient,
  toBytes,
  toHex,
} from "viem";
import { privateKeyToAccount } from "viem/accounts";
import type { Config } from "../../config.ts";
import type { Db } from "../../db/client.ts";
import { type ChainDeployment, latestDeployment, recordDeployment } from "./deployments.ts";
import { rpcTransport } from "../../lib/rpc-transport.ts";

/** The chain the server talks to, with our contracts' addresses. */
export interface ChainRuntime {
  chainId: number;
  /** The first RPC endpoint (the local anvil's, or CHAIN_RPC_URL's first). */
  rpcUrl: string;
  /** Every RPC endpoint CHAIN_RPC_URL names (requests fall back from one to the next). */
  rpcUrls: string[];
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
  /**
   * The deployer key (DEPLOYER_PRIVATE_KEY; anvil's first account locally), which is the collectible's
   * admin (DEFAULT_ADMIN_ROLE) on a development deployment. In production the admin is a multisig the
   * server never holds; the console's exit to IPFS checks on chain and asks for the multisig then.
   */
  admin?: LocalAccount;
  /** Buys resale listings for card and rupee orders (RESALE_BUYER_PRIVATE_KEY; a funded development key on anvil). */
  buyer?: LocalAccount;
  /** Relays fans' own signed recovery proposals and completes them (RECOVERY_RELAYER_PRIVATE_KEY; anvil's 7th account locally): no account's guardian (decision 185). */
  recoveryRelayer?: LocalAccount;
  /**
   * Signs sponsorships for our verifying paymaster (SPONSOR_SIGNER_PRIVATE_KEY; anvil's 10th account
   * locally; decision 186). It can only make the paymaster pay for an operation, never move a token.
   */
  sponsor?: LocalAccount;
  /**
   * Passkey wallets (decision 160): EntryPoint v0.8, our account factory and paymaster, and the ERC-4337
   * bundler (BUNDLER_URL, or the Alto the server started beside its anvil). Absent without them.
   */
  wallets?: { entryPoint: Address; accountFactory: Address; paymaster: Address; bundlerUrl?: string };
  stop(): Promise<void>;
}

/** Anvil dev accounts of the local bundler (executor, utility) and of the local recovery relayer. */
const LOCAL_BUNDLER_EXECUTOR_KEY = ANVIL_PRIVATE_KEYS[7];
const LOCAL_BUNDLER_UTILITY_KEY = ANVIL_PRIVATE_KEYS[8];
const LOCAL_RECOVERY_RELAYER_KEY = ANVIL_PRIVATE_KEYS[6];
const LOCAL_SPONSOR_KEY = ANVIL_PRIVATE_KEYS[9];

const LOCAL_CHAIN_ID = 31337;
const PREFERRED_LOCAL_PORT = 8545;

async function hasCode(client: PublicClient, a: Address): Promise<boolean> {
  const code = await client.getCode({ address: a }).catch(() => undefined);
  return !!code && code !== "0x";
}

/** The development resale buyer: a fixed key nobody uses elsewhere (not one of anvil's ten). */
const LOCAL_RESALE_BUYER_KEY = keccak256(toBytes("diginoor development resale buyer"));

/**
 * The resale buyer key of an anvil chain when none is configured: funded with 10,000 ETH once
 * (anvil_setBalance, which only anvil answers); undefined on any other chain.
 */
async function localResaleBuyer(client: PublicClient, chainId: number): Promise<LocalAccount | undefined> {
  if (chainId !== LOCAL_CHAIN_ID) return undefined;
  const account = privateKeyToAccount(LOCAL_RESALE_BUYER_KEY);
  try {
    if ((await client.getBalance({ address: account.address })) < 10n ** 21n)
      await client.request({
        method: "anvil_setBalance" as never,
        params: [account.address, toHex(10n ** 22n)] as never,
      });
    return account;
  } catch {
    return undefined;
  }
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
  let rpcUrls = config.CHAIN_RPC_URL ?? [];
  let rpcUrl = rpcUrls[0] ?? "";
  let stop = async () => {};
  if (local) {
    const statePath = config.paths.anvilState;
    fs.mkdirSync(path.dirname(statePath), { recursive: true });
    // Wallets expect a local chain on 8545; startAnvil refuses a port another process holds.
    const anvil = await startAnvil({ port: PREFERRED_LOCAL_PORT, chainId: LOCAL_CHAIN_ID, statePath }).catch(
      () => startAnvil({ chainId: LOCAL_CHAIN_ID, statePath }),
    );
    rpcUrl = anvil.rpcUrl;
    rpcUrls = [rpcUrl];
    stop = anvil.stop;
    log(`Local chain (anvil) at ${rpcUrl}, chain id ${anvil.chainId}`);
  }
  const publicClient = createPublicClient({ transport: rpcTransport(rpcUrls) }) as PublicClient;
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
    // Passkey wallet contracts: deployed here on the local chain, or on a development chain where the server
    // deploys with its own deployer key and none are recorded; elsewhere they come with CHAIN_DEPLOYMENT
    // (`npm run deploy -- --wallets`, which takes a multisig admin and stakes the paymaster).
    const recoveryRelayer = config.RECOVERY_RELAYER_PRIVATE_KEY
      ? privateKeyToAccount(config.RECOVERY_RELAYER_PRIVATE_KEY as Hex)
      : local
        ? privateKeyToAccount(LOCAL_RECOVERY_RELAYER_KEY)
        : undefined;
    // The development default on any anvil chain (the server's own or a test's), as its keys are public.
    const sponsor = config.SPONSOR_SIGNER_PRIVATE_KEY
      ? privateKeyToAccount(config.SPONSOR_SIGNER_PRIVATE_KEY as Hex)
      : local || chainId === LOCAL_CHAIN_ID
        ? privateKeyToAccount(LOCAL_SPONSOR_KEY)
        : undefined;
    const walletsMissing =
      !deployment.accountFactory || !(await hasCode(publicClient, deployment.accountFactory));
    const devChain = DEV_CHAIN_IDS.includes(chainId);
    // A paymaster from before decision 186 (no sponsorSigner), or one that trusts another key.
    const paymasterSigner = deployment.paymaster
      ? await publicClient
          .readContract({
            address: deployment.paymaster,
            abi: diginoorPaymasterAbi,
            functionName: "sponsorSigner",
          })
          .catch(() => undefined)
      : undefined;
    const paymasterStale =
      !walletsMissing && !!deployment.paymaster && (!paymasterSigner || paymasterSigner !== sponsor?.address);
    if (paymasterStale && local && sponsor) {
      // The local chain's factory stays (fans' wallet addresses are its), with a new verifying paymaster.
      const w = await deployWallets({
        rpcUrl,
        deployerPrivateKey: config.DEPLOYER_PRIVATE_KEY as Hex | undefined,
        collectible: deployment.collectible,
        marketplace: deployment.marketplace,
        factory: deployment.accountFactory,
        sponsorSigner: sponsor.address,
      });
      deployment = { ...deployment, paymaster: w.paymaster };
      await recordDeployment(db, deployment);
      log(`Deployed a verifying paymaster for SPONSOR_SIGNER_PRIVATE_KEY: ${w.paymaster}`);
    } else if (paymasterStale) {
      throw new Error(
        paymasterSigner
          ? `The paymaster ${deployment.paymaster} sponsors what ${paymasterSigner} signs, but SPONSOR_SIGNER_PRIVATE_KEY is ${sponsor?.address ?? "unset"}`
          : `The paymaster ${deployment.paymaster} is not a verifying paymaster (decision 186): deploy the wallet contracts again`,
      );
    }
    if (walletsMissing && (local || (config.DEPLOYER_PRIVATE_KEY && devChain))) {
      if (!sponsor)
        throw new Error("SPONSOR_SIGNER_PRIVATE_KEY is required to deploy the passkey wallet contracts");
      const w = await deployWallets({
        rpcUrl,
        deployerPrivateKey: config.DEPLOYER_PRIVATE_KEY as Hex | undefined,
        collectible: deployment.collectible,
        marketplace: deployment.marketplace,
        sponsorSigner: sponsor.address,
      });
      deployment = { ...deployment, accountFactory: w.factory, paymaster: w.paymaster };
      await recordDeployment(db, deployment);
      log(`Deployed passkey wallet contracts: factory ${w.factory}, paymaster ${w.paymaster}`);
    }
    let wallets: ChainRuntime["wallets"];
    if (deployment.paymaster && !devChain) {
      // ERC-7562: a bundler refuses an unstaked paymaster that reads its own storage in validation (ours
      // reads none since decision 186, but a paymaster's reputation and throttling follow its stake).
      const problem = stakeProblem(
        await stakeInfo(publicClient, deployment.paymaster),
        config.PAYMASTER_MIN_STAKE_WEI,
      );
      if (problem) {
        throw new Error(
          `The paymaster ${deployment.paymaster} on chain ${chainId} is not staked in the EntryPoint: ${problem}. A bundler would refuse every sponsored operation (ERC-7562). Its admin (the multisig) stakes it: addStake(86400) with at least PAYMASTER_MIN_STAKE_WEI (${config.PAYMASTER_MIN_STAKE_WEI} wei); see docs/decisions/181-paymaster-stake-and-erc7562-check.md`,
        );
      }
    }
    if (deployment.accountFactory && deployment.paymaster) {
      let bundlerUrl = config.BUNDLER_URL;
      if (!bundlerUrl && local) {
        const bundler = await startBundler({
          rpcUrl,
          executorPrivateKey: LOCAL_BUNDLER_EXECUTOR_KEY,
          utilityPrivateKey: LOCAL_BUNDLER_UTILITY_KEY,
        });
        bundlerUrl = bundler.url;
        const stopAnvil = stop;
        stop = async () => {
          await bundler.stop();
          await stopAnvil();
        };
        // The URL carries the bundler's key: never logged.
        log(`ERC-4337 bundler (Alto) on 127.0.0.1:${bundler.port} (loopback, keyed URL)`);
      }
      wallets = {
        entryPoint: ENTRYPOINT_ADDRESS,
        accountFactory: deployment.accountFactory,
        paymaster: deployment.paymaster,
        bundlerUrl,
      };
    }
    const key = (k: string | undefined) =>
      k ? privateKeyToAccount(k as Hex) : local ? privateKeyToAccount(ANVIL_DEPLOYER_PRIVATE_KEY) : undefined;
    const signer = key(config.VOUCHER_SIGNER_PRIVATE_KEY ?? config.DEPLOYER_PRIVATE_KEY);
    const minter = key(config.MINTER_PRIVATE_KEY ?? config.DEPLOYER_PRIVATE_KEY);
    const admin = key(config.DEPLOYER_PRIVATE_KEY);
    const buyer = config.RESALE_BUYER_PRIVATE_KEY
      ? privateKeyToAccount(config.RESALE_BUYER_PRIVATE_KEY as Hex)
      : await localResaleBuyer(publicClient, chainId);
    return {
      chainId,
      rpcUrl,
      rpcUrls,
      local,
      deployment,
      publicClient,
      signer,
      minter,
      admin,
      buyer,
      recoveryRelayer,
      sponsor,
      wallets,
      stop,
    };
  } catch (err) {
    await stop();
    throw err;
  }
}
