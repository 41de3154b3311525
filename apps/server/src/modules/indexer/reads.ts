import type {
  AccountTokens,
  Market,
  MarketToken,
  NftActivity,
  Token,
  TokenMetadata,
} from "@diginoor/api/chain";
import { getAddress } from "viem";
import type { Database } from "../../db/client.ts";
import { AppError } from "../../http/errors.ts";
import type { CatalogueService } from "../catalogue/service.ts";
import { auctionTiming } from "./pause.ts";
import * as repo from "./repo.ts";

const MAX_UINT256 = 2n ** 256n - 1n;
/** Most tokens one answer of GET /accounts/:address/tokens lists. */
export const ACCOUNT_TOKENS_LIMIT = 500;

export interface TokenReadsOptions {
  database: Database;
  /** Absent when the server runs without a chain: every token is then unknown. */
  chainId: number | undefined;
  catalogue: Pick<CatalogueService, "nftsByCatalogueNumber" | "catalogueNumberOf">;
  publicUrl: string;
  /** Token ids hidden from our marketplace by the studio console (suspended or voided). */
  hidden?: (tokenIds: string[]) => Promise<Set<string>>;
}

/**
 * The read side of the indexer: tokens, their live listing and auction, activity and ERC-721
 * metadata, from the indexer's tables (never a chain call per request) and the catalogue service.
 */
export function createTokenReads(opts: TokenReadsOptions) {
  const q: repo.Query = (text, params) => opts.database.query(text, params);
  const absolute = (u: string) => (/^https?:\/\//.test(u) ? u : `${opts.publicUrl}${u}`);

  /** A token id that can exist (0 .. 2^256-1) as a canonical decimal string; 404 otherwise. */
  function canonicalTokenId(raw: string): string {
    const id = BigInt(raw);
    if (id > MAX_UINT256) throw AppError.notFound("Token");
    return id.toString();
  }

  const nftsOf = (rows: repo.TokenViewRow[]) =>
    opts.catalogue.nftsByCatalogueNumber(rows.map((r) => Number(r.nft_number)));

  async function toTokens(
    rows: repo.TokenViewRow[],
    loaded?: Awaited<ReturnType<typeof nftsOf>>,
  ): Promise<Token[]> {
    const nfts = loaded ?? (await nftsOf(rows));
    const hidden = (await opts.hidden?.(rows.map((r) => r.token_id))) ?? new Set<string>();
    // An open auction's true end after a pause (the latest Paused/Unpaused event), read once per answer.
    const pause =
      opts.chainId !== undefined && rows.some((r) => r.auction_ends && r.auction_status === "open")
        ? await repo.lastPauseEvent(q, opts.chainId)
        : undefined;
    const nowSec = Math.floor(Date.now() / 1000);
    const endOf = (r: repo.TokenViewRow) => {
      if (!r.auction_ends) return null;
      const stored = Number(r.auction_ends);
      const end =
        r.auction_status === "open" ? (auctionTiming(stored, pause, nowSec).endsAt ?? stored) : stored;
      return new Date(end * 1000).toISOString();
    };
    return rows.map((r) => ({
      hidden: hidden.has(r.token_id),
      tokenId: r.token_id,
      nftId: nfts.get(Number(r.nft_number))?.id ?? null,
      edition: r.edition,
      owner: r.owner,
      listing:
        r.listing_seller && r.listing_price ? { seller: r.listing_seller, priceWei: r.listing_price } : null,
      auction:
        r.auction_seller && r.auction_reserve
          ? {
              seller: r.auction_seller,
              reserveWei: r.auction_reserve,
              highestBidWei: r.auction_high,
              highestBidder: r.auction_bidder,
              endsAt: endOf(r),
              settled: r.auction_status === "settled",
            }
          : null,
    }));
  }

  /** Tokens with what an NFT card shows of their catalogue NFT. */
  async function withNfts(rows: repo.TokenViewRow[]): Promise<MarketToken[]> {
    const nfts = await nftsOf(rows);
    const tokens = await toTokens(rows, nfts);
    return tokens.map((t, i) => {
      const n = nfts.get(Number(rows[i]?.nft_number));
      return {
        ...t,
        nft: n
          ? { title: n.title, imageUrl: n.imageUrl, tier: n.tier, tierLabel: n.tierLabel, film: n.film }
          : null,
      };
    });
  }

  async function tokenRow(tokenId: string): Promise<repo.TokenViewRow> {
    const id = canonicalTokenId(tokenId);
    if (opts.chainId === undefined) throw AppError.notFound("Token");
    const [row] = await repo.tokenById(q, opts.chainId, id);
    if (!row) throw AppError.notFound("Token");
    return row;
  }

  async function getToken(tokenId: string): Promise<Token> {
    const [token] = await toTokens([await tokenRow(tokenId)]);
    return token as Token;
  }

  async function accountTokens(address: string): Promise<AccountTokens> {
    if (opts.chainId === undefined) return { items: [] };
    const rows = await repo.tokensOfAccount(
      q,
      opts.chainId,
      getAddress(address.toLowerCase()),
      ACCOUNT_TOKENS_LIMIT,
    );
    return { items: await withNfts(rows) };
  }

  async function nftActivity(nftId: string, limit: number): Promise<NftActivity> {
    const number = await opts.catalogue.catalogueNumberOf(nftId);
    if (opts.chainId === undefined) return { items: [] };
    const rows = await repo.activityOfNft(q, opts.chainId, String(number), limit);
    return {
      items: rows.map((r) => ({
        kind: r.kind,
        tokenId: r.token_id,
        txHash: r.tx_hash,
        blockNumber: r.block_number,
        at: new Date(r.block_time).toISOString(),
        from: r.from_address,
        to: r.to_address,
        amountWei: r.amount_wei,
        saleKind: r.sale_kind,
      })),
    };
  }

  /** ERC-721 metadata JSON of a minted token (the target of the collectible's tokenURI). */
  async function metadata(tokenId: string): Promise<TokenMetadata> {
    const row = await tokenRow(tokenId);
    const nft = (await opts.catalogue.nftsByCatalogueNumber([Number(row.nft_number)])).get(
      Number(row.nft_number),
    );
    if (!nft) throw AppError.notFound("Token");
    return {
      name: row.edition > 0 ? `${nft.title} #${row.edition}` : nft.title,
      description: nft.description,
      image: absolute(nft.imageUrl),
      ...(nft.videoUrl ? { animation_url: absolute(nft.videoUrl) } : {}),
      external_url: `${opts.publicUrl}/nftdetail/${nft.id}`,
      attributes: [
        // The names marketplaces show as traits (issue 25: film, star, tier, edition at least).
        { trait_type: "Film", value: nft.film },
        { trait_type: "Star", value: nft.celebrity },
        { trait_type: "Tier", value: nft.tierLabel },
        { trait_type: "Production house", value: nft.productionHouse },
        { trait_type: "Category", value: nft.category },
        { trait_type: "Edition", value: row.edition, display_type: "number" },
        { trait_type: "Edition size", value: nft.editionSize, display_type: "number" },
        { trait_type: "Royalty", value: row.royalty_bps / 100, display_type: "boost_percentage" },
      ],
    };
  }

  /** Every token the indexer has seen minted, by token id (the IPFS export's list). */
  async function tokenIds(): Promise<string[]> {
    if (opts.chainId === undefined) return [];
    return repo.allTokenIds(q, opts.chainId);
  }

  /** Every minted token and the catalogue NFT it is of, by token id (ascending as numbers). */
  async function tokenCatalogue(): Promise<{ tokenId: bigint; catalogueNumber: number }[]> {
    if (opts.chainId === undefined) return [];
    const rows = await repo.tokensWithCatalogueNumbers(q, opts.chainId);
    return rows.map((r) => ({ tokenId: BigInt(r.token_id), catalogueNumber: Number(r.nft_number) }));
  }

  /** Mints the indexer has applied among `tokenIds`: token id → the minting transaction and recipient. */
  async function mints(
    tokenIds: string[],
  ): Promise<Map<string, { txHash: string; to: string; blockNumber: bigint }>> {
    if (opts.chainId === undefined || tokenIds.length === 0) return new Map();
    const rows = await repo.mintsOf(q, opts.chainId, tokenIds);
    return new Map(
      rows.map((r) => [
        r.token_id,
        { txHash: r.tx_hash, to: r.to_address, blockNumber: BigInt(r.block_number) },
      ]),
    );
  }

  /**
   * The indexer's record of a token's auction (open, or over: settled or cancelled rows are gone or settled).
   * `endsAt` is the true end at chain time `nowSec` (default: our clock): after a pause that began while the
   * auction ran, EXTENSION_WINDOW after the pause ended; `paused` while such a pause lasts.
   */
  async function auction(tokenId: string, nowSec = Math.floor(Date.now() / 1000)) {
    if (opts.chainId === undefined) return undefined;
    const [row] = await repo.auctionOf(q, opts.chainId, canonicalTokenId(tokenId));
    if (!row) return undefined;
    const open = row.status === "open";
    const timing = auctionTiming(
      row.ends_at === null ? null : Number(row.ends_at),
      open ? await repo.lastPauseEvent(q, opts.chainId) : undefined,
      nowSec,
    );
    return {
      seller: row.seller,
      reserveWei: BigInt(row.reserve_wei),
      durationDays: row.duration_days,
      /** The auction's own minimum increment (fixed at its creation); null for rows indexed before it was kept. */
      minIncrementBps: row.min_increment_bps,
      highestBidWei: row.highest_bid_wei === null ? null : BigInt(row.highest_bid_wei),
      highestBidder: row.highest_bidder,
      endsAt: timing.endsAt,
      paused: timing.paused,
      settled: row.status === "settled",
    };
  }

  /** Tokens for sale by their holders (live listings, open auctions), with their NFT's card fields. */
  async function market(limit = 200): Promise<Market> {
    if (opts.chainId === undefined) return { items: [] };
    const items = await withNfts(await repo.tokensForSale(q, opts.chainId, limit));
    return { items: items.filter((t) => !t.hidden) };
  }

  /**
   * Events the indexer recorded for a user to hear about (outbid, auction won or ended, sold, purchase
   * confirmed), after row `afterId`, with the NFT each concerns.
   */
  async function chainNotifications(afterId: string, limit = 200) {
    if (opts.chainId === undefined) return [];
    const rows = await repo.notificationsAfter(q, opts.chainId, afterId, limit);
    const nfts = await opts.catalogue.nftsByCatalogueNumber(
      rows.flatMap((r) => (r.nft_number ? [Number(r.nft_number)] : [])),
    );
    return rows.map((r) => {
      const nft = r.nft_number ? nfts.get(Number(r.nft_number)) : undefined;
      return {
        id: r.id,
        kind: r.kind,
        recipient: r.recipient,
        tokenId: r.token_id,
        amountWei: r.amount_wei,
        nft: nft ? { id: nft.id, title: nft.title } : null,
      };
    });
  }

  /** Tokens held by (or up for auction from) any of the addresses, with their NFT's card fields. */
  async function tokensOfAccounts(addresses: string[]): Promise<MarketToken[]> {
    if (opts.chainId === undefined || addresses.length === 0) return [];
    const rows = await repo.tokensOfAccounts(
      q,
      opts.chainId,
      addresses.map((a) => getAddress(a.toLowerCase())),
      ACCOUNT_TOKENS_LIMIT,
    );
    return withNfts(rows);
  }

  const nftRefsOf = async (rows: { nft_number: string | null }[]) => {
    const nfts = await opts.catalogue.nftsByCatalogueNumber(
      rows.flatMap((r) => (r.nft_number ? [Number(r.nft_number)] : [])),
    );
    return (r: { nft_number: string | null }) => {
      const n = r.nft_number ? nfts.get(Number(r.nft_number)) : undefined;
      return n ? { id: n.id, title: n.title, imageUrl: n.imageUrl } : null;
    };
  };

  /** Every bid placed from the addresses (newest first) with the token's latest auction. */
  async function bidsOf(addresses: string[], limit = 200) {
    if (opts.chainId === undefined || addresses.length === 0) return [];
    const rows = await repo.bidsOf(
      q,
      opts.chainId,
      addresses.map((a) => getAddress(a.toLowerCase())),
      limit,
    );
    const nftOf = await nftRefsOf(rows);
    return rows.map((r) => ({
      tokenId: r.token_id,
      nft: nftOf(r),
      bidder: r.bidder,
      amountWei: r.amount_wei,
      blockNumber: Number(r.block_number),
      at: new Date(r.block_time).toISOString(),
      txHash: r.tx_hash,
      auction: r.auction_status
        ? {
            status: r.auction_status as "open" | "settled" | "cancelled",
            createdBlock: Number(r.auction_created_block),
            highestBidder: r.auction_high_bidder,
            highestBidWei: r.auction_high_wei,
            endsAt: r.auction_ends ? new Date(Number(r.auction_ends) * 1000).toISOString() : null,
          }
        : null,
    }));
  }

  /** Bids, auctions started, sales and purchases of the addresses, newest first. */
  async function activityOfAccounts(addresses: string[], limit = 100) {
    if (opts.chainId === undefined || addresses.length === 0) return [];
    const rows = await repo.activityOfAccounts(
      q,
      opts.chainId,
      addresses.map((a) => getAddress(a.toLowerCase())),
      limit,
    );
    const nftOf = await nftRefsOf(rows);
    return rows.map((r) => ({
      kind: r.kind,
      tokenId: r.token_id,
      nft: nftOf(r),
      amountWei: r.amount_wei,
      at: new Date(r.at).toISOString(),
      txHash: r.tx_hash,
    }));
  }

  /** Every recorded sale (any chain) in which one of `addresses` sold or bought, oldest first. */
  async function salesOfAccounts(addresses: string[]) {
    if (!addresses.length) return [];
    const rows = await repo.salesOfAccounts(
      q,
      addresses.map((a) => a.toLowerCase()),
    );
    return rows.map((r) => ({
      chainId: r.chain_id,
      source: `chain:${r.chain_id}:${r.block_number}:${r.log_index}`,
      txHash: r.tx_hash,
      at: new Date(r.block_time),
      tokenId: r.token_id,
      nftNumber: r.nft_number === null ? null : Number(r.nft_number),
      kind: r.kind,
      seller: r.seller.toLowerCase(),
      buyer: r.buyer.toLowerCase(),
      priceWei: BigInt(r.price_wei),
    }));
  }

  return {
    salesOfAccounts,
    getToken,
    accountTokens,
    tokensOfAccounts,
    bidsOf,
    activityOfAccounts,
    chainNotifications,
    nftActivity,
    metadata,
    tokenIds,
    tokenCatalogue,
    mints,
    auction,
    market,
  };
}
