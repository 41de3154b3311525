// What our indexer keeps (apps/server/src/modules/indexer/tables.ts), as Ponder tables: tokens and
// their owners, listings, auctions, and the history of transfers, bids, sales and notifications.
import { index, onchainTable } from "ponder";

export const token = onchainTable("token", (t) => ({
  id: t.bigint().primaryKey(),
  nftNumber: t.bigint().notNull(),
  edition: t.integer().notNull(),
  owner: t.hex().notNull(),
  version: t.integer().notNull(),
  royaltyReceiver: t.hex().notNull(),
  royaltyBps: t.integer().notNull(),
  mintedBlock: t.bigint().notNull(),
}));

export const listing = onchainTable("listing", (t) => ({
  tokenId: t.bigint().primaryKey(),
  seller: t.hex().notNull(),
  priceWei: t.bigint().notNull(),
  tokenVersion: t.integer().notNull(),
  feeBps: t.integer().notNull(),
  royaltyBps: t.integer().notNull(),
}));

export const auction = onchainTable("auction", (t) => ({
  tokenId: t.bigint().primaryKey(),
  seller: t.hex().notNull(),
  reserveWei: t.bigint().notNull(),
  durationDays: t.integer().notNull(),
  minIncrementBps: t.integer().notNull(),
  highestBidWei: t.bigint(),
  highestBidder: t.hex(),
  endsAt: t.bigint(),
  status: t.text().notNull(),
  settledVersion: t.integer(),
  createdBlock: t.bigint().notNull(),
}));

export const transfer = onchainTable(
  "transfer",
  (t) => ({
    id: t.text().primaryKey(),
    blockNumber: t.bigint().notNull(),
    txHash: t.hex().notNull(),
    blockTime: t.bigint().notNull(),
    tokenId: t.bigint().notNull(),
    from: t.hex().notNull(),
    to: t.hex().notNull(),
  }),
  (t) => ({ byToken: index().on(t.tokenId) }),
);

export const bid = onchainTable(
  "bid",
  (t) => ({
    id: t.text().primaryKey(),
    blockNumber: t.bigint().notNull(),
    txHash: t.hex().notNull(),
    blockTime: t.bigint().notNull(),
    tokenId: t.bigint().notNull(),
    bidder: t.hex().notNull(),
    amountWei: t.bigint().notNull(),
    endsAt: t.bigint().notNull(),
  }),
  (t) => ({ byToken: index().on(t.tokenId) }),
);

export const sale = onchainTable(
  "sale",
  (t) => ({
    id: t.text().primaryKey(),
    blockNumber: t.bigint().notNull(),
    txHash: t.hex().notNull(),
    blockTime: t.bigint().notNull(),
    tokenId: t.bigint().notNull(),
    kind: t.text().notNull(),
    seller: t.hex().notNull(),
    buyer: t.hex().notNull(),
    priceWei: t.bigint().notNull(),
    royaltyWei: t.bigint().notNull(),
    feeWei: t.bigint().notNull(),
  }),
  (t) => ({ byToken: index().on(t.tokenId) }),
);

export const notification = onchainTable("notification", (t) => ({
  id: t.text().primaryKey(),
  blockNumber: t.bigint().notNull(),
  kind: t.text().notNull(),
  recipient: t.hex().notNull(),
  tokenId: t.bigint().notNull(),
  amountWei: t.bigint(),
}));
