// Tokens that outlive the platform (issue 25 point 1, decision 173): the IPFS snapshot of every token's
// metadata and media (`npm run export:ipfs`), and the exit that points the collectible's base URI at it.
// This module owns no table: it reads tokens through the indexer's reads, media through the storage, and
// acts on the chain with the admin key the chain runtime holds. Since issue 37 (decision 180) it also serves
// the collection's metadata (ERC-7572 contractURI) and sends the ERC-4906 refreshes of console edits with the
// minter key (refresh.ts, jobs.ts).
import type { ChainMetadata, IpfsExitResult } from "@diginoor/api/admin";
import type { CollectionMetadata, TokenLocation, TokenMetadata } from "@diginoor/api/chain";
import { chainNameOf } from "@diginoor/api/wallets";
import { diginoorCollectibleAbi } from "@diginoor/contracts/generated/diginoorCollectible";
import { CID } from "multiformats/cid";
import * as dagPb from "@ipld/dag-pb";
import path from "node:path";
import { type Address, encodeFunctionData, getAddress, parseEventLogs, type PublicClient } from "viem";
import { AppError } from "../../http/errors.ts";
import type { Storage } from "../../lib/storage/storage.ts";
import { isSafeKey } from "../../lib/storage/storage.ts";
import type { Jobs } from "../../platform/jobs/jobs.ts";
import type { Tx } from "../../platform/tx.ts";
import type { Minter } from "../chain/service.ts";
import type { TokenReads } from "../indexer/service.ts";
import { buildSnapshot, type LoadMedia, type Snapshot, writeCar } from "./snapshot.ts";
import { refreshMetadataJob, refreshRanges, type TokenRange } from "./refresh.ts";

export { buildSnapshot, IPFS_ADD_OPTIONS, metadataBytes, type Snapshot, writeCar } from "./snapshot.ts";
export { refreshMetadataJob, refreshRanges } from "./refresh.ts";

/** The collection's image: the site's icon, a file of the web app (`apps/web/public`). */
const COLLECTION_IMAGE = "favicon.svg";

/** The collection's description in its ERC-7572 metadata. */
export const COLLECTION_DESCRIPTION =
  "Licensed digital collectibles of Indian films: scenes, songs and stills, each an edition issued with its production house, which receives a royalty on every resale.";

const MAX_UINT256 = 2n ** 256n - 1n;

export interface PortabilityDeps {
  tokens: Pick<TokenReads, "tokenIds" | "metadata" | "getToken" | "tokenCatalogue">;
  /** Where console edits enqueue the ERC-4906 refresh (in their own transaction). */
  jobs?: Pick<Jobs, "enqueue">;
  storage: Pick<Storage, "get">;
  /** PUBLIC_URL: media under `<publicUrl>/media/` are ours, read from the storage. */
  publicUrl: string;
  /**
   * A file of the built web app by name (the collection's image, `<publicUrl>/favicon.svg`), for the snapshot;
   * null when it is not there (the image then stays its URL).
   */
  webFile?: (name: string) => Promise<Uint8Array | null>;
  /** The account showing a token on its public profile, by the wallet holding it (social's). */
  holders?: { holderHandle(address: string, tokenId: string): Promise<string | null> };
  /** Absent without a chain: the export is empty and the exit unavailable. */
  chain?: {
    chainId: number;
    /** Block explorer base URL (CHAIN_EXPLORER_URL or the chain's default); none on the local chain. */
    explorerUrl: string | null;
    publicClient: PublicClient;
    collectible: Address;
    /** Sends from the key the runtime believes is the collectible's admin (the deployer's), if any. */
    admin?: Minter;
    /** Sends the ERC-4906 refreshes: the minter key (MINTER_ROLE may call refreshMetadata). */
    refresher?: Minter;
  };
}

/** The base URI of a snapshot's metadata directory. */
export function ipfsBaseUri(root: string): string {
  return `ipfs://${root}/metadata/`;
}

/** The root CID as the base URI names it (base32 CIDv1), or 400 when it is not a UnixFS directory's CID. */
export function parseRootCid(raw: string): CID {
  let cid: CID;
  try {
    cid = CID.parse(raw.trim());
  } catch {
    throw invalidCid("This is not a CID");
  }
  if (cid.code !== dagPb.code) {
    throw invalidCid("This CID is not a directory (dag-pb): give the root CID the export printed");
  }
  return cid.toV1();
}

function invalidCid(message: string): AppError {
  return new AppError("validation_failed", message, [{ field: "rootCid", message }]);
}

export function createPortabilityService(deps: PortabilityDeps) {
  const mediaPrefix = `${deps.publicUrl}/media/`;
  const collectionImage = `${deps.publicUrl}/${COLLECTION_IMAGE}`;

  /** Our own media (the storage's objects), by the URL the metadata gives; another site's: null. */
  const loadMedia: LoadMedia = async (url) => {
    if (url === collectionImage) {
      const bytes = await deps.webFile?.(COLLECTION_IMAGE);
      return bytes ? { bytes, ext: path.extname(COLLECTION_IMAGE) } : null;
    }
    if (!url.startsWith(mediaPrefix)) return null;
    const key = decodeURIComponent(url.slice(mediaPrefix.length).split(/[?#]/)[0] ?? "");
    const obj = isSafeKey(key) ? await deps.storage.get(key) : null;
    if (!obj) throw new Error(`Media ${url} named by a token's metadata is missing from the storage`);
    return { bytes: new Uint8Array(obj.data), ext: path.extname(key).toLowerCase() };
  };

  /** Every minted token's metadata as our API serves it, by token id. */
  async function currentMetadata(): Promise<{ tokenId: string; metadata: TokenMetadata }[]> {
    const ids = await deps.tokens.tokenIds();
    const out: { tokenId: string; metadata: TokenMetadata }[] = [];
    for (const tokenId of ids) out.push({ tokenId, metadata: await deps.tokens.metadata(tokenId) });
    return out;
  }

  async function snapshot(): Promise<Snapshot> {
    const collection = deps.chain ? await collectionMetadata() : undefined;
    return buildSnapshot(await currentMetadata(), loadMedia, collection);
  }

  /** The contract's constants, read once (they never change: name, symbol and default royalty are immutable). */
  let constants: Promise<{ name: string; symbol: string; royaltyBps: number }> | undefined;
  function collectionConstants() {
    const chain = chainOrUnavailable();
    const read = (functionName: "name" | "symbol" | "defaultRoyaltyBps") =>
      chain.publicClient.readContract({
        address: chain.collectible,
        abi: diginoorCollectibleAbi,
        functionName,
      });
    constants ??= Promise.all([read("name"), read("symbol"), read("defaultRoyaltyBps")]).then(
      ([name, symbol, royaltyBps]) => ({
        name: String(name),
        symbol: String(symbol),
        royaltyBps: Number(royaltyBps),
      }),
    );
    constants.catch(() => {
      constants = undefined;
    });
    return constants;
  }

  /**
   * The collection's metadata (ERC-7572, what `contractURI()` = baseURI ++ "contract" names): OpenSea's
   * contract-level fields. Royalties are per token (ERC-2981, each token's production house), so the
   * collection gives the rate tokens are minted with and no single fee recipient.
   */
  async function collectionMetadata(): Promise<CollectionMetadata> {
    const c = await collectionConstants();
    return {
      name: c.name,
      symbol: c.symbol,
      description: COLLECTION_DESCRIPTION,
      image: collectionImage,
      external_link: deps.publicUrl,
      seller_fee_basis_points: c.royaltyBps,
    };
  }

  function chainOrUnavailable() {
    if (!deps.chain) throw new AppError("unavailable", "This server runs without a chain");
    return deps.chain;
  }

  /**
   * The collectible's base URI. It has no getter (only the event BaseURIUpdated), so it is read as a
   * minted token's tokenURI less its id; empty before the first mint.
   */
  async function baseUri(): Promise<ChainMetadata> {
    const chain = chainOrUnavailable();
    const [first] = await deps.tokens.tokenIds();
    let base = "";
    if (first !== undefined) {
      const uri = await chain.publicClient.readContract({
        address: chain.collectible,
        abi: diginoorCollectibleAbi,
        functionName: "tokenURI",
        args: [BigInt(first)],
      });
      base = uri.endsWith(first) ? uri.slice(0, -first.length) : uri;
    }
    return { collectible: chain.collectible, baseUri: base, onIpfs: base.startsWith("ipfs://") };
  }

  /** tokenURI as the chain answers it; null when it does not (the rest of the answer still helps). */
  async function tokenUri(chain: NonNullable<PortabilityDeps["chain"]>, tokenId: string) {
    try {
      return await chain.publicClient.readContract({
        address: chain.collectible,
        abi: diginoorCollectibleAbi,
        functionName: "tokenURI",
        args: [BigInt(tokenId)],
      });
    } catch {
      return null;
    }
  }

  /**
   * Sends one refreshMetadata over the minted tokens of `catalogueNumbers` (ERC-4906 MetadataUpdate or
   * BatchMetadataUpdate per run of them); what it sent, or why it sent nothing. Throws when the chain refuses
   * (the job is retried).
   */
  async function refreshMetadata(
    catalogueNumbers: number[],
  ): Promise<{ sent: false; why: string } | { sent: true; txHash: `0x${string}`; ranges: TokenRange[] }> {
    const chain = deps.chain;
    if (!chain) return { sent: false, why: "no chain" };
    const ranges = refreshRanges(await deps.tokens.tokenCatalogue(), new Set(catalogueNumbers));
    if (ranges.length === 0) return { sent: false, why: "no minted token of these NFTs" };
    const sender = chain.refresher ?? chain.admin;
    if (!sender)
      throw new Error(
        "The server holds neither the minter key nor the admin key: cannot announce a metadata change",
      );
    const txHash = await sender.send({
      address: chain.collectible,
      abi: diginoorCollectibleAbi,
      functionName: "refreshMetadata",
      args: [ranges],
      chain: null,
    });
    return { sent: true, txHash, ranges };
  }

  return {
    snapshot,
    collectionMetadata,
    refreshMetadata,

    /**
     * Enqueues the ERC-4906 refresh of the minted tokens of `catalogueNumbers` in the console edit's
     * transaction `tx`: the job exists if and only if the edit commits.
     */
    async announceMetadataChange(tx: Tx, catalogueNumbers: number[], reason: string): Promise<void> {
      if (catalogueNumbers.length === 0 || !deps.jobs || !deps.chain) return;
      await deps.jobs.enqueue(refreshMetadataJob, { catalogueNumbers, reason }, { tx });
    },

    /**
     * Where a minted token lives, for finding it without us (issue 25): chain, contract, token id, owner,
     * tokenURI and the explorer's pages. 404 for a token the indexer has not seen minted.
     */
    async whereItLives(tokenId: string): Promise<TokenLocation> {
      const token = await deps.tokens.getToken(tokenId);
      const chain = chainOrUnavailable();
      const contract = getAddress(chain.collectible);
      const [uri, ownerHandle] = await Promise.all([
        tokenUri(chain, token.tokenId),
        deps.holders?.holderHandle(token.owner, token.tokenId) ?? null,
      ]);
      const x = chain.explorerUrl;
      return {
        tokenId: token.tokenId,
        standard: "ERC-721",
        chainId: chain.chainId,
        chainName: chainNameOf(chain.chainId),
        contract,
        owner: token.owner,
        ownerHandle,
        tokenUri: uri,
        onIpfs: !!uri?.startsWith("ipfs://"),
        explorer: x
          ? {
              token: `${x}/nft/${contract}/${token.tokenId}`,
              contract: `${x}/address/${contract}`,
              owner: `${x}/address/${token.owner}`,
            }
          : null,
      };
    },

    /** Writes the CAR of every token's metadata and media to `out`; answers what it wrote. */
    async exportCar(out: string) {
      const s = await snapshot();
      const bytes = await writeCar(s, out);
      return {
        root: s.root.toString(),
        tokens: s.metadata.size,
        media: s.files.filter((f) => f.path.startsWith("media/")).length,
        external: s.external,
        blocks: s.blocks.length,
        bytes,
      };
    },

    /** Where token URIs point now. */
    chainMetadata: baseUri,

    /**
     * Points the collectible's base URI at `ipfs://<root>/metadata/` with the admin key; the contract emits
     * ERC-4906 BatchMetadataUpdate(0, 2^256-1) so marketplaces fetch every token's metadata again.
     */
    async exitToIpfs(rawRoot: string): Promise<IpfsExitResult & { before: string }> {
      const root = parseRootCid(rawRoot).toString();
      const chain = chainOrUnavailable();
      const uri = ipfsBaseUri(root);
      const data = encodeFunctionData({
        abi: diginoorCollectibleAbi,
        functionName: "setBaseURI",
        args: [uri],
      });
      const admin = (await chain.publicClient.readContract({
        address: chain.collectible,
        abi: diginoorCollectibleAbi,
        functionName: "defaultAdmin",
      })) as Address;
      if (!chain.admin || getAddress(chain.admin.account.address) !== getAddress(admin)) {
        throw new AppError(
          "conflict",
          `This server does not hold the collectible's admin key: the admin ${admin} (the multisig) must send this call to ${chain.collectible}`,
          { to: chain.collectible, data, admin, baseUri: uri },
        );
      }
      const before = (await baseUri()).baseUri;
      let hash: `0x${string}`;
      try {
        hash = await chain.admin.send({
          address: chain.collectible,
          abi: diginoorCollectibleAbi,
          functionName: "setBaseURI",
          args: [uri],
          chain: null,
        });
      } catch (err) {
        throw new AppError(
          "unavailable",
          `The chain did not take the transaction: ${(err as Error).message}`,
        );
      }
      const receipt = await chain.publicClient.getTransactionReceipt({ hash });
      const batch = parseEventLogs({
        abi: diginoorCollectibleAbi,
        logs: receipt.logs,
        eventName: "BatchMetadataUpdate",
      }).some(
        (l) =>
          getAddress(l.address) === getAddress(chain.collectible) &&
          l.args._fromTokenId === 0n &&
          l.args._toTokenId === MAX_UINT256,
      );
      return { rootCid: root, baseUri: uri, txHash: hash, batchMetadataUpdate: batch, before };
    },
  };
}

export type PortabilityService = ReturnType<typeof createPortabilityService>;
