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
} from "viem";
import { entryPoint08Address } from "viem/account-abstraction";
import { privateKeyToAccount } from "viem/accounts";
import {
  diginoorAccountFactoryAbi,
  diginoorAccountFactoryBytecode,
} from "../generated/diginoorAccountFactory.js";
import { diginoorPaymasterAbi, diginoorPaymasterBytecode } from "../generated/diginoorPaymaster.js";
import { ANVIL_DEPLOYER_PRIVATE_KEY } from "./anvil-accounts.js";

const require = createRequire(import.meta.url);

/** The CREATE2 proxy present on anvil and on every public chain (Arachnid's deterministic deployer). */
export const DETERMINISTIC_DEPLOYER: Address = "0x4e59b44847b379578588920ca78fbf26c0b4956c";
/** Salt of the canonical EntryPoint v0.8 deployment (gives {@link entryPoint08Address}). */
const ENTRYPOINT_08_SALT: Hex = "0x0a59dbff790c23c976a548690c27297883cc66b4c67024f9117b0238995e35e9";
export const ENTRYPOINT_ADDRESS: Address = entryPoint08Address;

/** Sponsored operations per passkey account per UTC day, unless told otherwise. */
export const DEFAULT_DAILY_LIMIT = 20;
/** Most a single sponsored operation may cost (wei), unless told otherwise. */
export const DEFAULT_MAX_COST_PER_OP = parseEther("0.05");

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
  /** Admin of the paymaster (deposit, stake, limits); the deployer when omitted. */
  admin?: Address;
  dailyLimit?: number;
  maxCostPerOp?: bigint;
  /** ETH put on the paymaster's EntryPoint deposit (default 10 ETH on a local chain, none otherwise). */
  depositWei?: bigint;
  /** Stake added for the paymaster (with a 1 day unstake delay); none when 0 or omitted. */
  stakeWei?: bigint;
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
 * chains have it), then our factory and paymaster, and fund the paymaster's deposit. Waits for receipts.
 */
export async function deployWallets(opts: DeployWalletsOptions): Promise<WalletContracts> {
  const account = privateKeyToAccount(opts.deployerPrivateKey ?? ANVIL_DEPLOYER_PRIVATE_KEY);
  const probe = createPublicClient({ transport: http(opts.rpcUrl) });
  const chain = chainFor(await probe.getChainId(), opts.rpcUrl);
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
  const factoryReceipt = await wait(
    await wallet.deployContract({
      abi: diginoorAccountFactoryAbi,
      bytecode: diginoorAccountFactoryBytecode,
    }),
  );
  const factory = getAddress(factoryReceipt.contractAddress as Address);
  const paymasterReceipt = await wait(
    await wallet.deployContract({
      abi: diginoorPaymasterAbi,
      bytecode: diginoorPaymasterBytecode,
      args: [
        opts.collectible,
        opts.marketplace,
        factory,
        getAddress(opts.admin ?? account.address),
        opts.dailyLimit ?? DEFAULT_DAILY_LIMIT,
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
  if (
    opts.stakeWei &&
    opts.stakeWei > 0n &&
    (opts.admin === undefined || getAddress(opts.admin) === account.address)
  ) {
    await wait(
      await wallet.writeContract({
        address: paymaster,
        abi: diginoorPaymasterAbi,
        functionName: "addStake",
        args: [86_400],
        value: opts.stakeWei,
      }),
    );
  }
  return { entryPoint: ENTRYPOINT_ADDRESS, factory, paymaster };
}
