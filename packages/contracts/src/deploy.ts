import {
  type Address,
  type Chain,
  createPublicClient,
  createWalletClient,
  defineChain,
  getContractAddress,
  type Hex,
  getAddress,
  http,
  keccak256,
  toHex,
} from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { diginoorCollectibleAbi, diginoorCollectibleBytecode } from "../generated/diginoorCollectible.js";
import { diginoorMarketplaceAbi, diginoorMarketplaceBytecode } from "../generated/diginoorMarketplace.js";
import { ANVIL_DEPLOYER_PRIVATE_KEY } from "./anvil-accounts.js";

/** `keccak256("MINTER_ROLE")` on DiginoorCollectible. */
export const MINTER_ROLE: Hex = keccak256(toHex("MINTER_ROLE"));
/** `keccak256("SIGNER_ROLE")` on DiginoorMarketplace (voucher signers). */
export const SIGNER_ROLE: Hex = keccak256(toHex("SIGNER_ROLE"));
/** Royalty given to every new token: 10%. */
export const DEFAULT_ROYALTY_BPS = 1000;
/** Default wait of a two-step admin transfer (AccessControlDefaultAdminRules): 2 days. */
export const DEFAULT_ADMIN_DELAY_SECONDS = 2 * 24 * 60 * 60;
/**
 * Chain ids of local development chains (anvil/hardhat 31337, geth/ganache dev 1337): the only chains where
 * one key may hold every role. Anywhere else {@link deployAll} needs four distinct addresses.
 */
export const DEV_CHAIN_IDS: readonly number[] = [31337, 1337];

/** What to pass for a deployment outside a development chain (the CLI's flags and their env variables). */
export const PRODUCTION_ROLES_HINT =
  "pass --admin <multisig address> (ADMIN_ADDRESS), --minter <address> (or MINTER_PRIVATE_KEY), " +
  "--signer <address> (or VOUCHER_SIGNER_PRIVATE_KEY) and --treasury <address> (TREASURY_ADDRESS): four " +
  "different addresses, none of them the deployer's (docs/decisions/109-contract-keys-and-roles.md)";

/**
 * Refuses one hot key outside a development chain: admin, minter, signer and treasury must all be given, all
 * different, and none of them the deployer. Throws an Error that says what to pass.
 */
export function checkRoles(
  chainId: number,
  deployer: Address,
  roles: { admin?: Address; minter?: Address; signer?: Address; treasury?: Address },
): void {
  if (DEV_CHAIN_IDS.includes(chainId)) return;
  const named = (["admin", "minter", "signer", "treasury"] as const).map((k) => [k, roles[k]] as const);
  const missing = named.filter(([, a]) => !a).map(([k]) => k);
  const problems: string[] = [];
  if (missing.length) problems.push(`no ${missing.join(", ")} given (each would default to the deployer)`);
  const seen = new Map<string, string>([[getAddress(deployer), "deployer"]]);
  for (const [k, a] of named) {
    if (!a) continue;
    const other = seen.get(getAddress(a));
    if (other) problems.push(`${k} is the same address as the ${other}`);
    else seen.set(getAddress(a), k);
  }
  if (problems.length) {
    throw new Error(
      `refusing to deploy on chain ${chainId} (not a development chain) with shared keys: ${problems.join("; ")}. To deploy, ${PRODUCTION_ROLES_HINT}.`,
    );
  }
}

/** Options of {@link deployAll}. */
export interface DeployAllOptions {
  /** JSON-RPC endpoint. */
  rpcUrl: string;
  /** Deployer key; anvil's first dev account when omitted. */
  deployerPrivateKey?: Hex;
  /**
   * Admin (DEFAULT_ADMIN_ROLE, two-step transfers) of both contracts from their constructors: a multisig in
   * production (docs/decisions/109-contract-keys-and-roles.md). The deployer when omitted (development chains
   * only: see {@link checkRoles}).
   */
  adminAddress?: Address;
  /** Wait of a two-step admin transfer, in seconds (default 2 days). */
  adminDelaySeconds?: number;
  /** Gets MINTER_ROLE on the collectible (card/INR orders); the deployer when omitted. */
  minterAddress?: Address;
  /** Gets SIGNER_ROLE on the marketplace (voucher signing); the deployer when omitted. Keep it apart from the minter. */
  signerAddress?: Address;
  /** Receives platform fees; the deployer when omitted. */
  treasury?: Address;
  /** Metadata base URI, normally `${PUBLIC_URL}/api/v1/metadata/` (a trailing `/` is added when missing). */
  metadataBaseUri: string;
}

/** Result of {@link deployAll}. */
export interface Deployment {
  chainId: number;
  collectible: Address;
  marketplace: Address;
  deployer: Address;
  /** Holder of DEFAULT_ADMIN_ROLE on both contracts. */
  admin: Address;
  /** Holder of MINTER_ROLE on the collectible. */
  minter: Address;
  /** Holder of SIGNER_ROLE on the marketplace (voucher signer). */
  signer: Address;
  treasury: Address;
  /** Block of the first deployment transaction (start block for indexers). */
  blockNumber: bigint;
}

function chainFor(id: number, rpcUrl: string): Chain {
  return defineChain({
    id,
    name: `chain-${id}`,
    nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 },
    rpcUrls: { default: { http: [rpcUrl] } },
  });
}

/**
 * Deploy DiginoorCollectible and DiginoorMarketplace, two transactions and nothing else: `adminAddress` (the
 * deployer when omitted) is admin of both from their constructors, so the deployer key never holds a role;
 * the marketplace (its address computed from the deployer's next nonce) and `minterAddress` get MINTER_ROLE
 * on the collectible from its constructor; `signerAddress` gets SIGNER_ROLE on the marketplace from its
 * constructor; fees go to `treasury`. Outside a development chain, refuses shared keys ({@link checkRoles}).
 * Waits for every receipt.
 */
export async function deployAll(opts: DeployAllOptions): Promise<Deployment> {
  const account = privateKeyToAccount(opts.deployerPrivateKey ?? ANVIL_DEPLOYER_PRIVATE_KEY);
  const probe = createPublicClient({ transport: http(opts.rpcUrl) });
  const chainId = await probe.getChainId();
  const chain = chainFor(chainId, opts.rpcUrl);
  const publicClient = createPublicClient({ chain, transport: http(opts.rpcUrl) });
  const wallet = createWalletClient({ account, chain, transport: http(opts.rpcUrl) });
  checkRoles(chainId, account.address, {
    admin: opts.adminAddress,
    minter: opts.minterAddress,
    signer: opts.signerAddress,
    treasury: opts.treasury,
  });
  const minter = getAddress(opts.minterAddress ?? account.address);
  const signer = getAddress(opts.signerAddress ?? account.address);
  const admin = getAddress(opts.adminAddress ?? account.address);
  const treasury = getAddress(opts.treasury ?? account.address);
  const adminDelay = opts.adminDelaySeconds ?? DEFAULT_ADMIN_DELAY_SECONDS;
  const baseUri = opts.metadataBaseUri.endsWith("/") ? opts.metadataBaseUri : `${opts.metadataBaseUri}/`;

  const wait = async (hash: Hex) => {
    const receipt = await publicClient.waitForTransactionReceipt({ hash });
    if (receipt.status !== "success") throw new Error(`deployment transaction ${hash} reverted`);
    return receipt;
  };

  // The collectible names the marketplace (MINTER_ROLE, the only caller of mintPrimary) in its constructor, so
  // the marketplace must be the deployer's very next contract: both are sent with explicit nonces.
  const nonce = await publicClient.getTransactionCount({ address: account.address, blockTag: "pending" });
  const predicted = getContractAddress({ from: account.address, nonce: BigInt(nonce + 1) });
  const collectibleHash = await wallet.deployContract({
    abi: diginoorCollectibleAbi,
    bytecode: diginoorCollectibleBytecode,
    args: [admin, adminDelay, baseUri, DEFAULT_ROYALTY_BPS, predicted, minter],
    nonce,
  });
  const marketplaceHash = await wallet.deployContract({
    abi: diginoorMarketplaceAbi,
    bytecode: diginoorMarketplaceBytecode,
    args: [
      getContractAddress({ from: account.address, nonce: BigInt(nonce) }),
      admin,
      adminDelay,
      treasury,
      signer,
    ],
    nonce: nonce + 1,
  });
  const collectibleReceipt = await wait(collectibleHash);
  const marketplaceReceipt = await wait(marketplaceHash);
  const collectible = getAddress(collectibleReceipt.contractAddress as Address);
  const marketplace = getAddress(marketplaceReceipt.contractAddress as Address);
  if (marketplace !== predicted)
    throw new Error(`marketplace deployed at ${marketplace}, expected ${predicted}`);
  return {
    chainId,
    collectible,
    marketplace,
    deployer: account.address,
    admin,
    minter,
    signer,
    treasury,
    blockNumber: collectibleReceipt.blockNumber,
  };
}
