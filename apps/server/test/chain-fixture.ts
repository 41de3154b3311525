import { ANVIL_ADDRESSES, ANVIL_PRIVATE_KEYS } from "@diginoor/contracts/anvil-accounts";
import { startAnvil } from "@diginoor/contracts/anvil";
import { type Deployment, deployAll } from "@diginoor/contracts/deploy";
import { diginoorCollectibleAbi } from "@diginoor/contracts/generated/diginoorCollectible";
import { diginoorMarketplaceAbi } from "@diginoor/contracts/generated/diginoorMarketplace";
import { toOrderId } from "@diginoor/contracts/voucher";
import {
  type Address,
  createPublicClient,
  createWalletClient,
  type Hex,
  http,
  type PublicClient,
  type TransactionReceipt,
  zeroAddress,
} from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { foundry } from "viem/chains";
import type { Database } from "../src/db/client.ts";
import type { ChainRuntime } from "../src/modules/chain/service.ts";
import { createIndexer, type Indexer, type IndexerOptions } from "../src/modules/indexer/service.ts";
import { type TokenViewRow, tokenById } from "../src/modules/indexer/repo.ts";

/**
 * A real anvil with our real contracts (deployed by the contracts package's deploy helper), and
 * outside clients acting on them directly: what the indexer tests watch.
 */
export interface ChainFixture {
  rpcUrl: string;
  deployment: Deployment;
  client: PublicClient;
  address(i: number): Address;
  /** Sends a contract call from anvil account `from` and waits for a successful receipt. */
  send(
    from: number,
    contract: "collectible" | "marketplace",
    functionName: string,
    args: unknown[],
    value?: bigint,
  ): Promise<TransactionReceipt>;
  /** Sends without waiting (automine off): returns the hash. */
  submit(
    from: number,
    contract: "collectible" | "marketplace",
    functionName: string,
    args: unknown[],
    value?: bigint,
  ): Promise<Hex>;
  rpc<T = unknown>(method: string, params?: unknown[]): Promise<T>;
  /** Mints a new token of catalogue NFT `nft` to account `to`; returns its id. */
  mint(to: number, nft?: bigint, edition?: number): Promise<bigint>;
  /** Mines blocks with automine off while `fn` submits transactions: all of them land in one block. */
  oneBlock(fn: () => Promise<void>): Promise<void>;
  indexer(database: Database, overrides?: Partial<IndexerOptions>): Indexer;
  /** Throws unless the indexer's view of every token in `ids` is what the contracts say. */
  assertAgrees(database: Database, ids: bigint[]): Promise<void>;
  stop(): Promise<void>;
  /** Stops the node only (with `statePath`, anvil writes its state on the way out): the RPC goes away. */
  stopNode(): Promise<void>;
  /** Starts anvil again on the same port, from the state file `statePath` (same URL, same chain). */
  startNode(): Promise<void>;
}

const ROYALTY_RECEIVER = 9;
/** Editions each catalogue item of the chain fixture has on chain (decision 184). */
const FIXTURE_EDITIONS = 5000;
let nextOrder = 1n;

export async function startChainFixture(opts: { statePath?: string } = {}): Promise<ChainFixture> {
  let anvil = await startAnvil({ chainId: foundry.id, statePath: opts.statePath });
  try {
    const deployment = await deployAll({
      rpcUrl: anvil.rpcUrl,
      metadataBaseUri: "http://localhost:3000/api/v1/metadata/",
    });
    const client = createPublicClient({
      chain: foundry,
      transport: http(anvil.rpcUrl),
      cacheTime: 0,
    }) as PublicClient;
    const wallets = ANVIL_PRIVATE_KEYS.map((k) =>
      createWalletClient({ account: privateKeyToAccount(k), chain: foundry, transport: http(anvil.rpcUrl) }),
    );
    const target = (contract: "collectible" | "marketplace") =>
      contract === "collectible"
        ? { address: deployment.collectible, abi: diginoorCollectibleAbi }
        : { address: deployment.marketplace, abi: diginoorMarketplaceAbi };
    const submit: ChainFixture["submit"] = (from, contract, functionName, args, value) =>
      (wallets[from] as (typeof wallets)[number]).writeContract({
        ...target(contract),
        functionName,
        args,
        value,
        gas: 600_000n,
      } as never);
    const rpc = <T>(method: string, params: unknown[] = []) =>
      client.request({ method, params } as never) as Promise<T>;
    const send: ChainFixture["send"] = async (from, contract, functionName, args, value) => {
      const hash = await submit(from, contract, functionName, args, value);
      const receipt = await client.waitForTransactionReceipt({ hash, pollingInterval: 20 });
      if (receipt.status !== "success") throw new Error(`${functionName} reverted (${hash})`);
      return receipt;
    };
    const registered = new Set<bigint>();
    const editionsUsed = new Map<bigint, number>();
    const fixture: ChainFixture = {
      rpcUrl: anvil.rpcUrl,
      deployment,
      client,
      address: (i) => ANVIL_ADDRESSES[i] as Address,
      send,
      submit,
      rpc,
      async mint(to, nft = 1n, edition) {
        const id = nextOrder++;
        // Editions are on chain (decision 184): the item is registered once, and each edition mints once, so a
        // mint that names no edition takes the item's next one.
        if (!registered.has(nft)) {
          registered.add(nft);
          await send(0, "collectible", "setEditionCount", [nft, FIXTURE_EDITIONS]);
        }
        const used = editionsUsed.get(nft) ?? 0;
        if (edition === undefined) edition = used + 1;
        editionsUsed.set(nft, Math.max(used, edition));
        await send(0, "collectible", "mintForOrder", [
          ANVIL_ADDRESSES[to],
          nft,
          edition,
          ANVIL_ADDRESSES[ROYALTY_RECEIVER],
          toOrderId(id),
        ]);
        return id;
      },
      async oneBlock(fn) {
        await rpc("evm_setAutomine", [false]);
        try {
          await fn();
          await rpc("evm_mine");
        } finally {
          await rpc("evm_setAutomine", [true]);
        }
      },
      indexer: (database, overrides = {}) =>
        createIndexer({
          database,
          chainId: foundry.id,
          rpcUrl: anvil.rpcUrl,
          collectible: deployment.collectible,
          marketplace: deployment.marketplace,
          startBlock: deployment.blockNumber,
          confirmations: 1,
          batchBlocks: 2000,
          pollMs: 50,
          reorgWindow: 256,
          log: () => {},
          ...overrides,
        }),
      async assertAgrees(database, ids) {
        const q = (text: string, params?: unknown[]) => database.query(text, params);
        for (const id of ids) {
          const [row] = (await tokenById(q as never, foundry.id, id.toString())) as TokenViewRow[];
          const read = <T>(contract: "collectible" | "marketplace", functionName: string) =>
            client.readContract({ ...target(contract), functionName, args: [id] } as never) as Promise<T>;
          const owner = await read<Address>("collectible", "ownerOf");
          const listing = await read<{ seller: Address; price: bigint }>("marketplace", "getListing");
          const auction = await read<{
            seller: Address;
            endTime: number;
            highestBidder: Address;
            amount: bigint;
          }>("marketplace", "getAuction");
          const chain = {
            owner,
            listing:
              listing.seller === zeroAddress
                ? null
                : { seller: listing.seller, price: String(listing.price) },
            auction:
              auction.seller === zeroAddress
                ? null
                : {
                    seller: auction.seller,
                    // `amount` is the reserve until the first bid.
                    high: auction.highestBidder === zeroAddress ? null : String(auction.amount),
                    bidder: auction.highestBidder === zeroAddress ? null : auction.highestBidder,
                    ends: auction.endTime === 0 ? null : String(auction.endTime),
                  },
          };
          const db = row && {
            owner: row.owner,
            listing: row.listing_seller ? { seller: row.listing_seller, price: row.listing_price } : null,
            auction:
              row.auction_status === "open"
                ? {
                    seller: row.auction_seller,
                    high: row.auction_high,
                    bidder: row.auction_bidder,
                    ends: row.auction_ends,
                  }
                : null,
          };
          if (JSON.stringify(db) !== JSON.stringify(chain)) {
            throw new Error(`token ${id}: database ${JSON.stringify(db)} but chain ${JSON.stringify(chain)}`);
          }
        }
      },
      stop: () => anvil.stop(),
      stopNode: () => anvil.stop(),
      async startNode() {
        if (!opts.statePath) throw new Error("startNode needs a chain started with statePath");
        anvil = await startAnvil({ chainId: foundry.id, statePath: opts.statePath, port: anvil.port });
      },
    };
    return fixture;
  } catch (err) {
    await anvil.stop();
    throw err;
  }
}

const PROJECTIONS = [
  "indexer_events",
  "indexer_tokens",
  "indexer_listings",
  "indexer_auctions",
  "indexer_operator_approvals",
  "indexer_owner_epochs",
  "indexer_transfers",
  "indexer_bids",
  "indexer_sales",
  "indexer_notifications",
];

/** Every projection row of the chain, without generated ids and insertion times. */
export async function snapshot(database: Database): Promise<Record<string, string[]>> {
  const out: Record<string, string[]> = {};
  for (const t of PROJECTIONS) {
    const rows = await database.query<{ j: string }>(
      `SELECT (to_jsonb(x) - 'id' - 'created_at')::text AS j FROM ${t} x WHERE chain_id = $1 ORDER BY 1`,
      [31337],
    );
    out[t] = rows.map((r) => r.j);
  }
  return out;
}

/** The chain runtime bootstrap takes for this fixture's anvil and contracts (`extra`: keys, wallets). */
export function fixtureRuntime(fixture: ChainFixture, extra: Partial<ChainRuntime> = {}): ChainRuntime {
  return {
    chainId: foundry.id,
    rpcUrl: fixture.rpcUrl,
    rpcUrls: [fixture.rpcUrl],
    local: true,
    deployment: fixture.deployment,
    publicClient: fixture.client,
    stop: async () => {},
    ...extra,
  };
}

/** Production house 1 (AVM), film 1 (Sivaji) and celebrity 1 (Rajinikanth), for NFTs whose tokens a test mints. */
export async function insertSivajiCatalogue(database: Database): Promise<void> {
  await database.query(
    "INSERT INTO production_houses (slug, name, logo_url) VALUES ('avm', 'AVM Productions', '/l.svg')",
  );
  await database.query(`INSERT INTO films (slug, name, poster_url, banner_url, thumbnail_url, production_house_id)
    VALUES ('sivaji', 'Sivaji', '/p.svg', '/b.svg', '/t.svg', 1)`);
  await database.query("INSERT INTO celebrities (slug, name) VALUES ('rajinikanth', 'Rajinikanth')");
}
