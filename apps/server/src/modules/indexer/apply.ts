import type { Address, Hex } from "viem";
import { zeroAddress } from "viem";

/**
 * Applying events to the projections, in memory: the repository loads the rows a batch touches,
 * `applyEvents` changes them in block, transaction and log order exactly as the contracts changed
 * their storage, and the repository writes the changed rows back, in the batch's transaction. The
 * image of each row before the first change a block made to it is kept as undo information.
 */

/** One log of our contracts, decoded. */
export interface IndexedLog {
  blockNumber: bigint;
  blockHash: Hex;
  blockTime: Date;
  txHash: Hex;
  txIndex: number;
  logIndex: number;
  /** `account`: a passkey account's RecoveryProposed, from any address (decision 185). */
  contract: "collectible" | "marketplace" | "account";
  address: Address;
  name: string;
  args: Record<string, unknown>;
}

export interface TokenRow {
  token_id: string;
  nft_number: string;
  edition: number;
  owner: string;
  version: number;
  royalty_receiver: string;
  royalty_bps: number;
  minted_block: string;
}
export interface ListingRow {
  token_id: string;
  seller: string;
  price_wei: string;
  token_version: number;
  owner_epoch: number;
  fee_bps: number;
  royalty_bps: number;
}
export interface AuctionRow {
  token_id: string;
  seller: string;
  reserve_wei: string;
  duration_days: number;
  /** The auction's own minimum increment, fixed at its creation (AuctionCreated); null for rows from before it was kept. */
  min_increment_bps: number | null;
  highest_bid_wei: string | null;
  highest_bidder: string | null;
  ends_at: string | null;
  status: "open" | "settled" | "cancelled";
  settled_version: number | null;
  created_block: string;
}
export interface ApprovalRow {
  owner: string;
  operator: string;
  approved: boolean;
}
export interface EpochRow {
  owner: string;
  epoch: number;
}

export interface MutableRows {
  tokens: TokenRow;
  listings: ListingRow;
  auctions: AuctionRow;
  approvals: ApprovalRow;
  epochs: EpochRow;
}
export type MutableTable = keyof MutableRows;
export const MUTABLE_TABLES: MutableTable[] = ["tokens", "listings", "auctions", "approvals", "epochs"];

/** The key of a row as an object of its key columns (undo journal, deletes). */
export function keyObject(table: MutableTable, key: string): Record<string, string> {
  if (table === "approvals") {
    const [owner, operator] = key.split(" ");
    return { owner: owner as string, operator: operator as string };
  }
  if (table === "epochs") return { owner: key };
  return { token_id: key };
}

export const approvalKey = (owner: string, operator: string) => `${owner} ${operator}`;

export interface UndoEntry {
  table: MutableTable;
  key: string;
  old: MutableRows[MutableTable] | null;
}

interface HistoryBase {
  block_number: string;
  log_index: number;
  tx_hash: string;
  block_time: string;
  token_id: string;
}
export interface TransferRow extends HistoryBase {
  from_address: string;
  to_address: string;
}
export interface BidRow extends HistoryBase {
  bidder: string;
  amount_wei: string;
  ends_at: string;
}
export interface SaleRow extends HistoryBase {
  kind: "primary" | "listing" | "auction";
  seller: string;
  buyer: string;
  price_wei: string;
  royalty_wei: string;
  fee_wei: string;
}
export type NotificationKind =
  | "outbid"
  | "auction_won"
  | "auction_ended"
  | "nft_sold"
  | "purchase_confirmed"
  | "recovery_proposed";
export interface NotificationRow {
  block_number: string;
  log_index: number;
  tx_hash: string;
  kind: NotificationKind;
  recipient: string;
  token_id: string;
  amount_wei: string | null;
}

/** Rows of the mutable tables as loaded for a batch (null = known not to exist). */
export type LoadedRows = { [T in MutableTable]: Map<string, MutableRows[T] | null> };

/** The keys a batch touches, to load before applying. */
export function keysOf(logs: IndexedLog[]): { [T in MutableTable]: Set<string> } {
  const keys = {
    tokens: new Set<string>(),
    listings: new Set<string>(),
    auctions: new Set<string>(),
    approvals: new Set<string>(),
    epochs: new Set<string>(),
  };
  for (const log of logs) {
    const a = log.args;
    if (typeof a.tokenId === "bigint") {
      const id = a.tokenId.toString();
      keys.tokens.add(id);
      keys.listings.add(id);
      keys.auctions.add(id);
    }
    if (log.name === "ApprovalForAll") {
      keys.approvals.add(approvalKey(a.owner as string, a.operator as string));
      keys.epochs.add(a.owner as string);
    }
    if (log.name === "Listed") keys.epochs.add(a.seller as string);
  }
  return keys;
}

export interface ApplyResult {
  changed: { [T in MutableTable]: Set<string> };
  undo: UndoEntry[];
  transfers: TransferRow[];
  bids: BidRow[];
  sales: SaleRow[];
  notifications: NotificationRow[];
}

export class IndexerInvariantError extends Error {}

/**
 * Applies `logs` (already in block, transaction, log order) to `rows`, in place. With `journal`, the
 * image of each row before the batch first changed it is kept (batches a reorganisation could still
 * replace).
 */
export function applyEvents(logs: IndexedLog[], rows: LoadedRows, journal: boolean): ApplyResult {
  const result: ApplyResult = {
    changed: {
      tokens: new Set(),
      listings: new Set(),
      auctions: new Set(),
      approvals: new Set(),
      epochs: new Set(),
    },
    undo: [],
    transfers: [],
    bids: [],
    sales: [],
    notifications: [],
  };
  const touched = new Set<string>();

  const get = <T extends MutableTable>(table: T, key: string): MutableRows[T] | null =>
    (rows[table].get(key) as MutableRows[T] | null | undefined) ?? null;
  const set = <T extends MutableTable>(table: T, key: string, row: MutableRows[T] | null) => {
    const mark = `${table} ${key}`;
    if (journal && !touched.has(mark)) {
      touched.add(mark);
      const old = get(table, key);
      result.undo.push({ table, key, old: old ? { ...old } : null });
    }
    (rows[table] as Map<string, MutableRows[T] | null>).set(key, row);
    result.changed[table].add(key);
  };
  const token = (id: string, log: IndexedLog): TokenRow => {
    const t = get("tokens", id);
    if (!t) throw new IndexerInvariantError(`${log.name} of unknown token ${id} in ${log.txHash}`);
    return t;
  };

  for (const log of logs) {
    const a = log.args;
    const id = typeof a.tokenId === "bigint" ? a.tokenId.toString() : "";
    const base = {
      block_number: log.blockNumber.toString(),
      log_index: log.logIndex,
      tx_hash: log.txHash,
      block_time: log.blockTime.toISOString(),
      token_id: id,
    };
    const notify = (kind: NotificationKind, recipient: unknown, amount: unknown) =>
      result.notifications.push({
        block_number: base.block_number,
        log_index: log.logIndex,
        tx_hash: log.txHash,
        kind,
        recipient: recipient as string,
        token_id: id || "0",
        amount_wei: typeof amount === "bigint" ? amount.toString() : null,
      });

    /** A resale (Sale) or an auction settlement (AuctionSettled): same fields but the buyer's and price's names. */
    const sale = (kind: "listing" | "auction", buyer: unknown, price: unknown) =>
      result.sales.push({
        ...base,
        kind,
        seller: a.seller as string,
        buyer: buyer as string,
        price_wei: String(price),
        royalty_wei: String(a.royaltyAmount),
        fee_wei: String(a.platformFee),
      });

    if (log.contract === "account") {
      // Whoever sent it and whatever the guardian: the wallet's owner hears of it (no token involved).
      if (log.name === "RecoveryProposed") notify("recovery_proposed", log.address, null);
      continue;
    }
    if (log.contract === "collectible") {
      switch (log.name) {
        case "CollectibleMinted":
          // The owner comes from the Transfer (from 0) that follows in the same transaction.
          set("tokens", id, {
            token_id: id,
            nft_number: String(a.catalogueNftId),
            edition: Number(a.edition),
            owner: zeroAddress,
            version: 0,
            royalty_receiver: a.royaltyReceiver as string,
            royalty_bps: Number(a.royaltyBps),
            minted_block: base.block_number,
          });
          break;
        case "Transfer": {
          const t = token(id, log);
          const from = a.from as string;
          set("tokens", id, {
            ...t,
            owner: a.to as string,
            version: from === zeroAddress ? t.version : t.version + 1,
          });
          result.transfers.push({ ...base, from_address: from, to_address: a.to as string });
          break;
        }
        case "Approval": {
          const t = token(id, log);
          set("tokens", id, { ...t, version: t.version + 1 });
          break;
        }
        case "ApprovalForAll": {
          const owner = a.owner as string;
          const key = approvalKey(owner, a.operator as string);
          const was = get("approvals", key)?.approved ?? false;
          if (!a.approved && was) {
            set("epochs", owner, { owner, epoch: (get("epochs", owner)?.epoch ?? 0) + 1 });
          }
          set("approvals", key, { owner, operator: a.operator as string, approved: !!a.approved });
          break;
        }
        case "TokenRoyaltyUpdated": {
          // Like the contract, a royalty change bumps the token's version: its live listing dies.
          const t = token(id, log);
          set("tokens", id, {
            ...t,
            version: t.version + 1,
            royalty_receiver: a.receiver as string,
            royalty_bps: Number(a.royaltyBps),
          });
          break;
        }
      }
      continue;
    }

    switch (log.name) {
      case "PrimaryPurchase": {
        // The mint just before it in the same transaction (CollectibleMinted, Transfer from 0) named the buyer
        // (the token's owner) and the item's payee (its royalty receiver); the event does not repeat them (gas).
        const t = token(id, log);
        result.sales.push({
          ...base,
          kind: "primary",
          seller: t.royalty_receiver,
          buyer: t.owner,
          price_wei: String(a.price),
          royalty_wei: "0",
          fee_wei: String(a.platformFee),
        });
        notify("purchase_confirmed", t.owner, a.price);
        break;
      }
      case "Listed": {
        const t = token(id, log);
        const seller = a.seller as string;
        set("listings", id, {
          token_id: id,
          seller,
          price_wei: String(a.price),
          token_version: t.version,
          owner_epoch: get("epochs", seller)?.epoch ?? 0,
          fee_bps: Number(a.feeBps),
          royalty_bps: Number(a.royaltyBps),
        });
        // A finished auction is no longer the token's news once it is listed again.
        const auction = get("auctions", id);
        if (auction && auction.status !== "open") set("auctions", id, null);
        break;
      }
      case "ListingPriceUpdated": {
        const l = get("listings", id);
        if (!l) throw new IndexerInvariantError(`price update of unknown listing ${id} in ${log.txHash}`);
        set("listings", id, { ...l, price_wei: String(a.newPrice) });
        break;
      }
      case "ListingCancelled":
        set("listings", id, null);
        break;
      case "Sale":
        set("listings", id, null);
        sale("listing", a.buyer, a.price);
        notify("nft_sold", a.seller, a.price);
        notify("purchase_confirmed", a.buyer, a.price);
        break;
      case "AuctionCreated":
        set("auctions", id, {
          token_id: id,
          seller: a.seller as string,
          reserve_wei: String(a.reservePrice),
          duration_days: Number(a.durationDays),
          min_increment_bps: Number(a.minIncrementBps),
          highest_bid_wei: null,
          highest_bidder: null,
          ends_at: null,
          status: "open",
          settled_version: null,
          created_block: base.block_number,
        });
        break;
      case "BidPlaced": {
        const au = get("auctions", id);
        if (!au) throw new IndexerInvariantError(`bid on unknown auction ${id} in ${log.txHash}`);
        set("auctions", id, {
          ...au,
          highest_bid_wei: String(a.amount),
          highest_bidder: a.bidder as string,
          ends_at: String(a.endTime),
        });
        result.bids.push({
          ...base,
          bidder: a.bidder as string,
          amount_wei: String(a.amount),
          ends_at: String(a.endTime),
        });
        if (a.previousBidder !== zeroAddress) notify("outbid", a.previousBidder, a.amount);
        break;
      }
      case "AuctionExtended": {
        const au = get("auctions", id);
        if (au) set("auctions", id, { ...au, ends_at: String(a.endTime) });
        break;
      }
      case "AuctionCancelled":
        set("auctions", id, null);
        break;
      case "AuctionSettled": {
        const au = get("auctions", id);
        if (!au) throw new IndexerInvariantError(`settlement of unknown auction ${id} in ${log.txHash}`);
        set("auctions", id, { ...au, status: "settled", settled_version: token(id, log).version });
        sale("auction", a.winner, a.amount);
        notify("auction_won", a.winner, a.amount);
        notify("auction_ended", a.seller, a.amount);
        break;
      }
    }
  }
  return result;
}
