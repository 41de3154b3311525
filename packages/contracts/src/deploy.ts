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

/** Options of {@link deployAll}. */
export interface DeployAllOptions {
  /** JSON-RPC endpoint. */
  rpcUrl: string;
  /** Deployer and admin key; anvil's first dev account when omitted. */
  deployerPrivateKey?: Hex;
  /** Gets MINTER_ROLE on the collectible and SIGNER_ROLE (voucher signing) on the marketplace; the deployer when omitted. */
  minterAddress?: Address;
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
  /** Holder of MINTER_ROLE (collectible) and SIGNER_ROLE (marketplace). */
  minter: Address;
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
 * Deploy DiginoorCollectible and DiginoorMarketplace and configure them: the deployer is admin of both;
 * the marketplace and `minterAddress` get MINTER_ROLE on the collectible; `minterAddress` gets SIGNER_ROLE
 * on the marketplace; fees go to `treasury`. Waits for every receipt.
 */
export async function deployAll(opts: {
  rpcUrl: string;
  deployerPrivateKey?: Hex;
  minterAddress?: Address;
  treasury?: Address;
  metadataBaseUri: string;
}): Promise<{
  chainId: number;
  collectible: Address;
  marketplace: Address;
  deployer: Address;
  minter: Address;
  treasury: Address;
  blockNumber: bigint;
}> {
  const account = privateKeyToAccount(opts.deployerPrivateKey ?? ANVIL_DEPLOYER_PRIVATE_KEY);
  const probe = createPublicClient({ transport: http(opts.rpcUrl) });
  const chainId = await probe.getChainId();
  const chain = chainFor(chainId, opts.rpcUrl);
  const publicClient = createPublicClient({ chain, transport: http(opts.rpcUrl) });
  const wallet = createWalletClient({ account, chain, transport: http(opts.rpcUrl) });
  const minter = getAddress(opts.minterAddress ?? account.address);
  const treasury = getAddress(opts.treasury ?? account.address);
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
      args: [account.address, baseUri, DEFAULT_ROYALTY_BPS],
    }),
  );
  const collectible = getAddress(collectibleReceipt.contractAddress as Address);
  const marketplaceReceipt = await wait(
    await wallet.deployContract({
      abi: diginoorMarketplaceAbi,
      bytecode: diginoorMarketplaceBytecode,
      args: [collectible, account.address, treasury, minter],
    }),
  );
  const marketplace = getAddress(marketplaceReceipt.contractAddress as Address);
  await wait(
    await wallet.writeContract({
      address: collectible,
      abi: diginoorCollectibleAbi,
      functionName: "grantRole",
      args: [MINTER_ROLE, marketplace],
    }),
  );
  await wait(
    await wallet.writeContract({
      address: collectible,
      abi: diginoorCollectibleAbi,
      functionName: "grantRole",
      args: [MINTER_ROLE, minter],
    }),
  );
  return {
    chainId,
    collectible,
    marketplace,
    deployer: account.address,
    minter,
    treasury,
    blockNumber: collectibleReceipt.blockNumber,
  };
}
