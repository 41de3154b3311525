/**
 * Shared test/gas fixture: one anvil per test file (so one per vitest worker at a time), contracts deployed
 * with deployAll, wallet clients for anvil's dev accounts, and helpers for sending transactions, expecting
 * custom-error reverts and snapshotting.
 */
import {
  type Abi,
  type Address,
  BaseError,
  type Chain,
  ContractFunctionRevertedError,
  createPublicClient,
  createTestClient,
  createWalletClient,
  decodeErrorResult,
  getAddress,
  parseEventLogs,
  defineChain,
  type Hex,
  http,
  type PublicClient,
  type TransactionReceipt,
  type WalletClient,
  type Account,
  type Transport,
} from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { afterAll, afterEach, beforeAll, beforeEach } from "vitest";
import { diginoorCollectibleAbi } from "../generated/diginoorCollectible.js";
import { diginoorMarketplaceAbi } from "../generated/diginoorMarketplace.js";
import { attackerWalletAbi, attackerWalletBytecode } from "../generated/testHelpers.js";
import { ANVIL_ADDRESSES, ANVIL_PRIVATE_KEYS } from "../src/anvil-accounts.js";
import { type AnvilInstance, startAnvil } from "../src/anvil.js";
import { deployAll, type Deployment } from "../src/deploy.js";
import { type PurchaseVoucher, signPurchaseVoucher, toOrderId, voucherOrderId } from "../src/voucher.js";

export const BASE_URI = "https://diginoor.test/api/v1/metadata/";
/** The voucher signer's key: a key of its own, apart from the minter's (SIGNER_ROLE only, holds no ETH). */
export const SIGNER_KEY: Hex = "0x8f2a55949038a9610f50fb23b5883af3b4ecb3c3bb792cbcefbd1542c692be63";
export const SIGNER_ADDRESS: Address = privateKeyToAccount(SIGNER_KEY).address;
export const ETH = 10n ** 18n;

/** Every custom error the contracts can raise (bubbled ones included), for decoding revert data. */
export const allErrorsAbi = [
  ...diginoorMarketplaceAbi.filter((x) => x.type === "error"),
  ...diginoorCollectibleAbi.filter((x) => x.type === "error"),
] as Abi;

export type Wallet = WalletClient<Transport, Chain, Account>;

export interface Fixture {
  anvil: AnvilInstance;
  chain: Chain;
  publicClient: PublicClient<Transport, Chain>;
  testClient: ReturnType<typeof makeTestClient>;
  deployment: Deployment;
  collectible: Address;
  marketplace: Address;
  /** wallets[i] = anvil dev account i. 0 admin/deployer, 1 minter, 2 production house, 9 treasury. */
  wallets: Wallet[];
  admin: Wallet;
  minter: Wallet;
  /** Holder of SIGNER_ROLE (key SIGNER_KEY). */
  signer: Address;
  productionHouse: Address;
  treasury: Address;
  stop(): Promise<void>;
}

function makeTestClient(chain: Chain, rpcUrl: string) {
  return createTestClient({ chain, mode: "anvil", transport: http(rpcUrl, { timeout: 60_000 }) });
}

/** Admin transfer delay used by the test deployments (1 hour). */
export const ADMIN_DELAY = 3600;

/** Catalogue items whose primary terms the fixture sets (payee: the production house, floor 0). */
export const FIXTURE_CATALOGUE_IDS = [42n, 77n, 78n] as const;

export async function setupFixture(opts: { chainId?: number; hardfork?: string } = {}): Promise<Fixture> {
  const anvil = await startAnvil({ chainId: opts.chainId, hardfork: opts.hardfork });
  const chain = defineChain({
    id: anvil.chainId,
    name: "anvil",
    nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 },
    rpcUrls: { default: { http: [anvil.rpcUrl] } },
  });
  const transport = http(anvil.rpcUrl, { timeout: 60_000 });
  // Reads made together (the invariant checks make dozens at once) go as one JSON-RPC batch.
  const publicClient = createPublicClient({
    chain,
    transport: http(anvil.rpcUrl, { timeout: 60_000, batch: true }),
    pollingInterval: 50,
  });
  const testClient = makeTestClient(chain, anvil.rpcUrl);
  const wallets = ANVIL_PRIVATE_KEYS.map((pk) =>
    createWalletClient({ account: privateKeyToAccount(pk), chain, transport }),
  );
  const deployment = await deployAll({
    rpcUrl: anvil.rpcUrl,
    metadataBaseUri: BASE_URI,
    minterAddress: ANVIL_ADDRESSES[1],
    signerAddress: SIGNER_ADDRESS,
    treasury: ANVIL_ADDRESSES[9],
    adminDelaySeconds: ADMIN_DELAY,
  });
  const f: Fixture = {
    anvil,
    chain,
    publicClient,
    testClient,
    deployment,
    collectible: deployment.collectible,
    marketplace: deployment.marketplace,
    wallets,
    admin: wallets[0] as Wallet,
    minter: wallets[1] as Wallet,
    signer: SIGNER_ADDRESS,
    productionHouse: ANVIL_ADDRESSES[2],
    treasury: ANVIL_ADDRESSES[9],
    stop: () => anvil.stop(),
  };
  for (const id of FIXTURE_CATALOGUE_IDS) await setPrimaryTerms(f, id, f.productionHouse, 0n);
  for (const id of FIXTURE_EDITION_IDS) await setEditionCount(f, id, MAX_EDITIONS);
  return f;
}

/** The most editions an item can have (uint16). */
export const MAX_EDITIONS = 65_535;
/** Catalogue items the fixture registers with MAX_EDITIONS editions (the primary items and minterMint's default 7). */
export const FIXTURE_EDITION_IDS = [...FIXTURE_CATALOGUE_IDS, 1n, 7n, 9n, 99n, 2n ** 32n - 1n] as const;

/** Registers (or changes) a catalogue item's edition count on the collectible; the minter unless `wallet`. */
export function setEditionCount(f: Fixture, catalogueNftId: bigint, count: number, wallet = f.minter) {
  return send(f, wallet, {
    address: f.collectible,
    abi: diginoorCollectibleAbi,
    functionName: "setEditionCount",
    args: [catalogueNftId, count],
  });
}

let editionCounter = 0;
/** A fresh edition number (1 .. MAX_EDITIONS): each edition of an item mints once (decision 184). */
export function nextEdition(): number {
  editionCounter = (editionCounter % (MAX_EDITIONS - 100)) + 1;
  return editionCounter + 100;
}

/** The minter sets a catalogue item's primary payee and floor price on the collectible. */
export function setPrimaryTerms(f: Fixture, catalogueNftId: bigint, payee: Address, floorWei: bigint) {
  return send(f, f.minter, {
    address: f.collectible,
    abi: diginoorCollectibleAbi,
    functionName: "setPrimaryTerms",
    args: [catalogueNftId, payee, floorWei],
  });
}

/**
 * The chain of one test file: before its tests, a fresh anvil with the contracts deployed is handed to `ready`
 * (which keeps it and does the file's own setup); after them, the anvil stops. Every test starts from the state
 * `ready` left (snapshot before each test, revert after).
 */
export function useFixture(ready: (f: Fixture) => void | Promise<void>): void {
  let f: Fixture | undefined;
  let snap: Hex;
  beforeAll(async () => {
    f = await setupFixture();
    await ready(f);
  });
  afterAll(async () => {
    await f?.stop();
  });
  beforeEach(async () => {
    snap = await snapshot(f as Fixture);
  });
  afterEach(async () => {
    await revertTo(f as Fixture, snap);
  });
}

/** Send a transaction and wait for a successful receipt. */
export async function send(
  f: Fixture,
  wallet: Wallet,
  call: {
    address: Address;
    abi: Abi | readonly unknown[];
    functionName: string;
    args?: readonly unknown[];
    value?: bigint;
    gas?: bigint;
  },
): Promise<TransactionReceipt> {
  const hash = await wallet.writeContract(call as never);
  const receipt = await f.publicClient.waitForTransactionReceipt({ hash, pollingInterval: 20 });
  if (receipt.status !== "success") throw new Error(`transaction ${call.functionName} reverted`);
  return receipt;
}

/** Name of the custom error in a viem error (decoded with every contract's errors), or undefined. */
export function revertName(err: unknown): string | undefined {
  if (!(err instanceof BaseError)) return undefined;
  const reverted = err.walk((e) => e instanceof ContractFunctionRevertedError);
  if (reverted instanceof ContractFunctionRevertedError) {
    if (reverted.data?.errorName) return reverted.data.errorName;
    if (reverted.raw) {
      try {
        return decodeErrorResult({ abi: allErrorsAbi, data: reverted.raw }).errorName;
      } catch {
        return `raw:${reverted.raw.slice(0, 10)}`;
      }
    }
    return reverted.reason ?? "reverted";
  }
  const withData = err.walk((e) => typeof (e as { data?: unknown }).data === "string") as {
    data?: Hex;
  } | null;
  if (withData?.data) {
    try {
      return decodeErrorResult({ abi: allErrorsAbi, data: withData.data }).errorName;
    } catch {
      return `raw:${withData.data.slice(0, 10)}`;
    }
  }
  return undefined;
}

/** Assert that `p` rejects with the custom error `name` (optionally check decoded args). */
export async function expectRevert(p: Promise<unknown>, name: string): Promise<void> {
  try {
    await p;
  } catch (err) {
    const got = revertName(err);
    if (got !== name) {
      throw new Error(
        `expected revert ${name}, got ${got ?? "unknown"}: ${err instanceof Error ? err.message.split("\n")[0] : String(err)}`,
      );
    }
    return;
  }
  throw new Error(`expected revert ${name}, but the call succeeded`);
}

export async function snapshot(f: Fixture): Promise<Hex> {
  return f.testClient.snapshot();
}

export async function revertTo(f: Fixture, id: Hex): Promise<void> {
  await f.testClient.revert({ id });
}

export async function now(f: Fixture): Promise<bigint> {
  return (await f.publicClient.getBlock()).timestamp;
}

let orderCounter = 1000n;
/** A fresh order id of the minter's path (small numbers, so token ids stay readable). */
export function nextOrderId(): Hex {
  orderCounter += 1n;
  return toOrderId(orderCounter);
}

/** A fresh order id of the voucher path (2^64 + n). */
export function nextVoucherOrderId(): Hex {
  orderCounter += 1n;
  return voucherOrderId(orderCounter);
}

/** Mint a token to `to` through the minter role (card/INR path). Returns the token id. */
export async function minterMint(
  f: Fixture,
  to: Address,
  o: { catalogueNftId?: bigint; edition?: number; orderId?: Hex; royaltyReceiver?: Address } = {},
): Promise<{ tokenId: bigint; receipt: TransactionReceipt; orderId: Hex }> {
  const orderId = o.orderId ?? nextOrderId();
  const receipt = await send(f, f.minter, {
    address: f.collectible,
    abi: diginoorCollectibleAbi,
    functionName: "mintForOrder",
    args: [
      to,
      o.catalogueNftId ?? 7n,
      o.edition ?? nextEdition(),
      o.royaltyReceiver ?? f.productionHouse,
      orderId,
    ],
  });
  return { tokenId: BigInt(orderId), receipt, orderId };
}

/**
 * Build and sign a voucher (signed by the SIGNER_ROLE holder unless `signerKey` is given; fee 250 bps; catalogue
 * item 42, whose payee is the production house).
 */
export async function makeVoucher(
  f: Fixture,
  buyer: Address,
  o: Partial<PurchaseVoucher> & { signerKey?: Hex; chainId?: number; marketplace?: Address } = {},
): Promise<{ voucher: PurchaseVoucher; signature: Hex }> {
  const voucher: PurchaseVoucher = {
    catalogueNftId: o.catalogueNftId ?? 42n,
    edition: o.edition ?? nextEdition(),
    priceWei: o.priceWei ?? ETH / 10n,
    buyer,
    platformFeeBps: o.platformFeeBps ?? 250,
    orderId: o.orderId ?? nextVoucherOrderId(),
    expiry: o.expiry ?? (await now(f)) + 3600n,
  };
  const signature = await signPurchaseVoucher({
    privateKey: o.signerKey ?? SIGNER_KEY,
    chainId: o.chainId ?? f.chain.id,
    marketplace: o.marketplace ?? f.marketplace,
    voucher,
  });
  return { voucher, signature };
}

/** Approve the marketplace for all tokens of `wallet`. */
export async function approveMarketplace(f: Fixture, wallet: Wallet): Promise<void> {
  await send(f, wallet, {
    address: f.collectible,
    abi: diginoorCollectibleAbi,
    functionName: "setApprovalForAll",
    args: [f.marketplace, true],
  });
}

/** Deploy an AttackerWallet (test helper contract) from `wallet`. */
export async function deployAttacker(f: Fixture, wallet: Wallet): Promise<Address> {
  const hash = await wallet.deployContract({ abi: attackerWalletAbi, bytecode: attackerWalletBytecode });
  const receipt = await f.publicClient.waitForTransactionReceipt({ hash, pollingInterval: 20 });
  return getAddress(receipt.contractAddress as Address);
}

/** ETH spent on gas by a receipt. */
export function gasCost(r: TransactionReceipt): bigint {
  return r.gasUsed * r.effectiveGasPrice;
}

// ---------------------------------------------------------------- terse call helpers for tests

/** Send a marketplace transaction from `wallet`. */
export function mp(
  f: Fixture,
  wallet: Wallet,
  functionName: string,
  args: readonly unknown[] = [],
  value?: bigint,
) {
  return send(f, wallet, { address: f.marketplace, abi: diginoorMarketplaceAbi, functionName, args, value });
}

/** Send a collectible transaction from `wallet`. */
export function col(f: Fixture, wallet: Wallet, functionName: string, args: readonly unknown[] = []) {
  return send(f, wallet, { address: f.collectible, abi: diginoorCollectibleAbi, functionName, args });
}

/** Read a marketplace view. */
export function readMp<T = unknown>(
  f: Fixture,
  functionName: string,
  args: readonly unknown[] = [],
): Promise<T> {
  return f.publicClient.readContract({
    address: f.marketplace,
    abi: diginoorMarketplaceAbi,
    functionName,
    args,
  } as never) as Promise<T>;
}

/** Read a collectible view. */
export function readCol<T = unknown>(
  f: Fixture,
  functionName: string,
  args: readonly unknown[] = [],
): Promise<T> {
  return f.publicClient.readContract({
    address: f.collectible,
    abi: diginoorCollectibleAbi,
    functionName,
    args,
  } as never) as Promise<T>;
}

/** Decoded marketplace + collectible + attacker events of a receipt. */
export function events(r: TransactionReceipt) {
  return parseEventLogs({
    abi: [...diginoorMarketplaceAbi, ...diginoorCollectibleAbi, ...attackerWalletAbi],
    logs: r.logs,
  }) as unknown as { eventName: string; args: Record<string, unknown>; address: Address }[];
}

/** The single event `name` of a receipt (throws when absent). */
export function eventOf(r: TransactionReceipt, name: string): Record<string, unknown> {
  const e = events(r).filter((x) => x.eventName === name);
  if (e.length !== 1) throw new Error(`expected one ${name} event, got ${e.length}`);
  return (e[0] as { args: Record<string, unknown> }).args;
}

export function balance(f: Fixture, address: Address): Promise<bigint> {
  return f.publicClient.getBalance({ address });
}

/** Move chain time forward by `seconds` and mine a block. */
export async function advance(f: Fixture, seconds: number | bigint): Promise<void> {
  await f.testClient.increaseTime({ seconds: Number(seconds) });
  await f.testClient.mine({ blocks: 1 });
}

/** Attacker call helper. */
export function attack(
  f: Fixture,
  wallet: Wallet,
  attacker: Address,
  functionName: string,
  args: readonly unknown[] = [],
  value?: bigint,
) {
  return send(f, wallet, { address: attacker, abi: attackerWalletAbi, functionName, args, value });
}

export { encodeFunctionData, zeroAddress } from "viem";

/** What the treasury has and is owed: its balance plus the marketplace's accrued platform fees. */
export async function treasuryFunds(f: Fixture): Promise<bigint> {
  const [b, accrued] = await Promise.all([balance(f, f.treasury), readMp<bigint>(f, "accruedFees")]);
  return b + accrued;
}

/** ETH the marketplace holds for bidders and payees: its balance minus the accrued platform fees. */
export async function heldBalance(f: Fixture): Promise<bigint> {
  const [b, accrued] = await Promise.all([balance(f, f.marketplace), readMp<bigint>(f, "accruedFees")]);
  return b - accrued;
}
