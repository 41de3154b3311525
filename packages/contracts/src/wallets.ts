/**
 * Passkey wallets on chain (docs/decisions/160-passkey-wallets.md): the ERC-4337 EntryPoint v0.8 (the
 * npm package @account-abstraction/contracts' own build, put at its canonical address through the
 * deterministic deployer), our account factory and our paymaster.
 */
import { createRequire } from "node:module";
import {
  type Address,
  type Chain,
  concat,
  createPublicClient,
  createWalletClient,
  defineChain,
  getAddress,
  type Hex,
  http,
  parseEther,
  type PublicClient,
} from "viem";
import { entryPoint08Abi, entryPoint08Address } from "viem/account-abstraction";
import { privateKeyToAccount } from "viem/accounts";
import {
  diginoorAccountFactoryAbi,
  diginoorAccountFactoryBytecode,
} from "../generated/diginoorAccountFactory.js";
import { diginoorPaymasterAbi, diginoorPaymasterBytecode } from "../generated/diginoorPaymaster.js";
import { ANVIL_DEPLOYER_PRIVATE_KEY } from "./anvil-accounts.js";
import { DEV_CHAIN_IDS } from "./deploy.js";

const require = createRequire(import.meta.url);

/** The CREATE2 proxy present on anvil and on every public chain (Arachnid's deterministic deployer). */
export const DETERMINISTIC_DEPLOYER: Address = "0x4e59b44847b379578588920ca78fbf26c0b4956c";
/** Salt of the canonical EntryPoint v0.8 deployment (gives {@link entryPoint08Address}). */
const ENTRYPOINT_08_SALT: Hex = "0x0a59dbff790c23c976a548690c27297883cc66b4c67024f9117b0238995e35e9";
export const ENTRYPOINT_ADDRESS: Address = entryPoint08Address;

/** Most a single sponsored operation may cost (wei), unless told otherwise: the paymaster's on-chain backstop. */
export const DEFAULT_MAX_COST_PER_OP = parseEther("0.05");
/**
 * Stake the paymaster locks in the EntryPoint at deployment, unless told otherwise: 1 native token (10^18
 * wei), the least Alto (`--min-entity-stake`, default 1) and the reference bundler take as "staked". ERC-7562
 * asks the equivalent of about $1000 (MIN_STAKE_VALUE, set per chain): a hosted bundler may ask more; pass
 * its minimum (docs/decisions/181-paymaster-stake-and-erc7562-check.md).
 */
export const DEFAULT_PAYMASTER_STAKE_WEI = parseEther("1");
/** ERC-7562's MIN_UNSTAKE_DELAY: a staked entity's stake stays locked at least a day after unlockStake. */
export const MIN_UNSTAKE_DELAY_SECONDS = 86_400;
/** Unstake delay given to the paymaster's stake, unless told otherwise. */
export const DEFAULT_UNSTAKE_DELAY_SECONDS = MIN_UNSTAKE_DELAY_SECONDS;

/** What to pass to deploy the passkey wallet contracts outside a development chain. */
export const WALLET_ROLES_HINT =
  "pass --admin <multisig address> (ADMIN_ADDRESS), admin of the paymaster (deposit, stake, limits), an address " +
  "other than the deployer's, and the sponsorship key's address (--sponsor-signer, the address of the server's " +
  "SPONSOR_SIGNER_PRIVATE_KEY), not the deployer's";

/**
 * The key checks of {@link deployWallets}, as {@link checkRoles} for deployAll: outside a development chain
 * the paymaster's admin must be given (a multisig) and not be the deployer, the sponsorship signer (a hot key
 * of the server's) may not be the deployer, and the paymaster must be staked with at least `minStakeWei` and
 * an unstake delay of at least a day (ERC-7562). There is no guardian to check: the factory names none, each
 * fan names their own (decision 185). Throws an Error that says what to pass.
 */
export function checkWalletRoles(
  chainId: number,
  deployer: Address,
  opts: {
    admin?: Address;
    /** The paymaster's sponsorship signer (decision 186). */
    sponsorSigner?: Address;
    stakeWei: bigint;
    unstakeDelaySeconds: number;
    minStakeWei?: bigint;
  },
): void {
  const problems: string[] = [];
  if (opts.unstakeDelaySeconds < MIN_UNSTAKE_DELAY_SECONDS)
    problems.push(
      `the paymaster's unstake delay is ${opts.unstakeDelaySeconds} s, under ERC-7562's ${MIN_UNSTAKE_DELAY_SECONDS} s`,
    );
  if (!DEV_CHAIN_IDS.includes(chainId)) {
    const d = getAddress(deployer);
    if (!opts.admin) problems.push("no paymaster admin given (it would default to the deployer)");
    else if (getAddress(opts.admin) === d)
      problems.push("the paymaster admin is the same address as the deployer");
    if (opts.sponsorSigner && getAddress(opts.sponsorSigner) === d)
      problems.push("the sponsorship signer is the same address as the deployer");
    const min = opts.minStakeWei ?? DEFAULT_PAYMASTER_STAKE_WEI;
    if (opts.stakeWei < min)
      problems.push(`the paymaster's stake is ${opts.stakeWei} wei, under the minimum of ${min} wei`);
  }
  if (problems.length) {
    throw new Error(
      `refusing to deploy the passkey wallet contracts on chain ${chainId}: ${problems.join("; ")}. To deploy, ${WALLET_ROLES_HINT}, and a stake of at least ${opts.minStakeWei ?? DEFAULT_PAYMASTER_STAKE_WEI} wei with an unstake delay of at least ${MIN_UNSTAKE_DELAY_SECONDS} s.`,
    );
  }
}

export interface WalletContracts {
  entryPoint: Address;
  factory: Address;
  paymaster: Address;
}

export interface DeployWalletsOptions {
  rpcUrl: string;
  deployerPrivateKey?: Hex;
  collectible: Address;
  marketplace: Address;
  /**
   * The server's sponsorship key's address (SPONSOR_SIGNER_PRIVATE_KEY; decision 186): the paymaster pays
   * only for operations it signed. It can sign sponsorships only, never move a fan's token.
   */
  sponsorSigner: Address;
  /** An account factory already deployed (its accounts keep their addresses): only a paymaster is deployed then. */
  factory?: Address;
  /**
   * Admin of the paymaster (deposit, stake): a multisig outside a development chain, where it is
   * required and must not be the deployer ({@link checkWalletRoles}); the deployer when omitted.
   */
  admin?: Address;
  maxCostPerOp?: bigint;
  /** ETH put on the paymaster's EntryPoint deposit (default 10 ETH on a local chain, none otherwise). */
  depositWei?: bigint;
  /** Stake the paymaster locks in the EntryPoint at deployment ({@link DEFAULT_PAYMASTER_STAKE_WEI} when omitted). */
  stakeWei?: bigint;
  /** The stake's unstake delay in seconds (at least ERC-7562's day; {@link DEFAULT_UNSTAKE_DELAY_SECONDS} when omitted). */
  unstakeDelaySeconds?: number;
}

function chainFor(id: number, rpcUrl: string): Chain {
  return defineChain({
    id,
    name: `chain-${id}`,
    nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 },
    rpcUrls: { default: { http: [rpcUrl] } },
  });
}

/** Creation bytecode of EntryPoint v0.8 from the npm package @account-abstraction/contracts. */
export function entryPointBytecode(): Hex {
  const artifact = require("@account-abstraction/contracts/artifacts/EntryPoint.json") as { bytecode: Hex };
  return artifact.bytecode;
}

/**
 * Deploy EntryPoint v0.8 at its canonical address if it has no code there yet (a local chain; public
 * chains have it), then our factory and paymaster, fund the paymaster's deposit and stake it (ERC-7562: a
 * paymaster that reads its own storage in validation must be staked). Outside a development chain it
 * refuses the deployer as admin, and a stake under the minimum ({@link checkWalletRoles}).
 * When the admin is not the deployer, the paymaster is made with the deployer as its admin for the time of
 * the deposit and the stake (only the admin may stake), then its admin role goes to `admin` and the deployer
 * renounces them; the roles are read back on chain. Waits for receipts.
 */
export async function deployWallets(opts: DeployWalletsOptions): Promise<WalletContracts> {
  const account = privateKeyToAccount(opts.deployerPrivateKey ?? ANVIL_DEPLOYER_PRIVATE_KEY);
  const probe = createPublicClient({ transport: http(opts.rpcUrl) });
  const chain = chainFor(await probe.getChainId(), opts.rpcUrl);
  const stakeWei = opts.stakeWei ?? DEFAULT_PAYMASTER_STAKE_WEI;
  const unstakeDelaySeconds = opts.unstakeDelaySeconds ?? DEFAULT_UNSTAKE_DELAY_SECONDS;
  checkWalletRoles(chain.id, account.address, {
    admin: opts.admin,
    sponsorSigner: opts.sponsorSigner,
    stakeWei,
    unstakeDelaySeconds,
  });
  const admin = getAddress(opts.admin ?? account.address);
  const publicClient = createPublicClient({ chain, transport: http(opts.rpcUrl) });
  const wallet = createWalletClient({ account, chain, transport: http(opts.rpcUrl) });
  const wait = async (hash: Hex) => {
    const receipt = await publicClient.waitForTransactionReceipt({ hash });
    if (receipt.status !== "success") throw new Error(`wallet deployment transaction ${hash} reverted`);
    return receipt;
  };
  const hasCode = async (a: Address) => {
    const code = await publicClient.getCode({ address: a });
    return !!code && code !== "0x";
  };

  if (!(await hasCode(ENTRYPOINT_ADDRESS))) {
    if (!(await hasCode(DETERMINISTIC_DEPLOYER))) {
      throw new Error(
        `no EntryPoint v0.8 at ${ENTRYPOINT_ADDRESS} and no deterministic deployer to put it there`,
      );
    }
    await wait(
      await wallet.sendTransaction({
        to: DETERMINISTIC_DEPLOYER,
        data: concat([ENTRYPOINT_08_SALT, entryPointBytecode()]),
        gas: 8_000_000n,
      }),
    );
    if (!(await hasCode(ENTRYPOINT_ADDRESS)))
      throw new Error("EntryPoint v0.8 did not land at its canonical address");
  }
  const factory = opts.factory
    ? getAddress(opts.factory)
    : getAddress(
        (
          await wait(
            await wallet.deployContract({
              abi: diginoorAccountFactoryAbi,
              bytecode: diginoorAccountFactoryBytecode,
            }),
          )
        ).contractAddress as Address,
      );
  const paymasterReceipt = await wait(
    await wallet.deployContract({
      abi: diginoorPaymasterAbi,
      bytecode: diginoorPaymasterBytecode,
      args: [
        opts.collectible,
        opts.marketplace,
        getAddress(opts.sponsorSigner),
        // The deployer first (only the admin may stake), handed over below.
        account.address,
        opts.maxCostPerOp ?? DEFAULT_MAX_COST_PER_OP,
      ],
    }),
  );
  const paymaster = getAddress(paymasterReceipt.contractAddress as Address);
  const deposit = opts.depositWei ?? (chain.id === 31337 ? parseEther("10") : 0n);
  if (deposit > 0n) {
    await wait(
      await wallet.writeContract({
        address: paymaster,
        abi: diginoorPaymasterAbi,
        functionName: "deposit",
        value: deposit,
      }),
    );
  }
  if (stakeWei > 0n) {
    await wait(
      await wallet.writeContract({
        address: paymaster,
        abi: diginoorPaymasterAbi,
        functionName: "addStake",
        args: [unstakeDelaySeconds],
        value: stakeWei,
      }),
    );
  }
  if (admin !== account.address) {
    const roles = [
      await publicClient.readContract({
        address: paymaster,
        abi: diginoorPaymasterAbi,
        functionName: "DEFAULT_ADMIN_ROLE",
      }),
    ];
    // The role to the admin, then the deployer gives up its own (renounceRole needs no admin).
    const steps = [
      ...roles.map((role) => ({ functionName: "grantRole" as const, args: [role, admin] as const })),
      ...roles.map((role) => ({
        functionName: "renounceRole" as const,
        args: [role, account.address] as const,
      })),
    ];
    for (const step of steps) {
      await wait(await wallet.writeContract({ address: paymaster, abi: diginoorPaymasterAbi, ...step }));
    }
    for (const role of roles) {
      const [adminHas, deployerHas] = await Promise.all(
        [admin, account.address].map((who) =>
          publicClient.readContract({
            address: paymaster,
            abi: diginoorPaymasterAbi,
            functionName: "hasRole",
            args: [role, who],
          }),
        ),
      );
      if (!adminHas || deployerHas)
        throw new Error(`paymaster ${paymaster}: role ${role} was not handed over to ${admin}`);
    }
  }
  return { entryPoint: ENTRYPOINT_ADDRESS, factory, paymaster };
}

/** The EntryPoint's record of an entity (EntryPoint.getDepositInfo). */
export interface StakeInfo {
  deposit: bigint;
  staked: boolean;
  stake: bigint;
  unstakeDelaySec: number;
  /** Non-zero once unlockStake was called: the stake no longer counts. */
  withdrawTime: number;
}

/** What the EntryPoint holds for `entity`: deposit, stake, unstake delay, unlock time. */
export async function stakeInfo(client: PublicClient, entity: Address): Promise<StakeInfo> {
  const info = await client.readContract({
    address: ENTRYPOINT_ADDRESS,
    abi: entryPoint08Abi,
    functionName: "getDepositInfo",
    args: [entity],
  });
  return {
    deposit: info.deposit,
    staked: info.staked,
    stake: info.stake,
    unstakeDelaySec: Number(info.unstakeDelaySec),
    withdrawTime: Number(info.withdrawTime),
  };
}

/**
 * Why `info` is not a staked entity in ERC-7562's sense (a locked stake of at least `minStakeWei` with an
 * unstake delay of at least a day), or undefined when it is.
 */
export function stakeProblem(
  info: StakeInfo,
  minStakeWei: bigint = DEFAULT_PAYMASTER_STAKE_WEI,
): string | undefined {
  if (!info.staked || info.stake === 0n)
    return info.withdrawTime ? "its stake is unlocked (unlockStake was called)" : "it has no stake";
  if (info.stake < minStakeWei)
    return `its stake is ${info.stake} wei, under the minimum of ${minStakeWei} wei`;
  if (info.unstakeDelaySec < MIN_UNSTAKE_DELAY_SECONDS)
    return `its unstake delay is ${info.unstakeDelaySec} s, under ERC-7562's ${MIN_UNSTAKE_DELAY_SECONDS} s`;
  return undefined;
}
