import {
  type Address,
  type Chain,
  createPublicClient,
  createWalletClient,
  defineChain,
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

/** Options of {@link deployAll}. */
export interface DeployAllOptions {
  /** JSON-RPC endpoint. */
  rpcUrl: string;
  /** Deployer key; anvil's first dev account when omitted. */
  deployerPrivateKey?: Hex;
  /**
   * Receives the admin role of both contracts (DEFAULT_ADMIN_ROLE, two-step transfers): a multisig in
   * production (docs/decisions/109-contract-keys-and-roles.md). The deployer when omitted.
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
 * Deploy DiginoorCollectible and DiginoorMarketplace and configure them: `adminAddress` (the deployer when
 * omitted) is admin of both; the marketplace and `minterAddress` get MINTER_ROLE on the collectible;
 * `signerAddress` gets SIGNER_ROLE on the marketplace; fees go to `treasury`. The deployer grants the
 * minter roles itself, so when another admin is named the deployer is admin only until it has handed
 * over: the admin role is given to `adminAddress` with a two-step transfer that the new admin accepts
 * after the delay (`acceptDefaultAdminTransfer`). Waits for every receipt.
 */
export async function deployAll(opts: DeployAllOptions): Promise<Deployment> {
  const account = privateKeyToAccount(opts.deployerPrivateKey ?? ANVIL_DEPLOYER_PRIVATE_KEY);
  const probe = createPublicClient({ transport: http(opts.rpcUrl) });
  const chainId = await probe.getChainId();
  const chain = chainFor(chainId, opts.rpcUrl);
  const publicClient = createPublicClient({ chain, transport: http(opts.rpcUrl) });
  const wallet = createWalletClient({ account, chain, transport: http(opts.rpcUrl) });
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

  const collectibleReceipt = await wait(
    await wallet.deployContract({
      abi: diginoorCollectibleAbi,
      bytecode: diginoorCollectibleBytecode,
      args: [account.address, adminDelay, baseUri, DEFAULT_ROYALTY_BPS],
    }),
  );
  const collectible = getAddress(collectibleReceipt.contractAddress as Address);
  const marketplaceReceipt = await wait(
    await wallet.deployContract({
      abi: diginoorMarketplaceAbi,
      bytecode: diginoorMarketplaceBytecode,
      args: [collectible, admin, adminDelay, treasury, signer],
    }),
  );
  const marketplace = getAddress(marketplaceReceipt.contractAddress as Address);
  for (const to of [marketplace, minter]) {
    await wait(
      await wallet.writeContract({
        address: collectible,
        abi: diginoorCollectibleAbi,
        functionName: "grantRole",
        args: [MINTER_ROLE, to],
      }),
    );
  }
  if (admin !== account.address) {
    await wait(
      await wallet.writeContract({
        address: collectible,
        abi: diginoorCollectibleAbi,
        functionName: "beginDefaultAdminTransfer",
        args: [admin],
      }),
    );
  }
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
