// Drizzle definitions of the indexer's tables; they mirror migrations/0060_indexer.sql.
// The repository builds its bulk statements from these definitions (getTableConfig), so a column
// is named in one place.
import {
  bigint,
  bigserial,
  boolean,
  integer,
  jsonb,
  numeric,
  pgTable,
  primaryKey,
  text,
  timestamp,
} from "drizzle-orm/pg-core";

const uint256 = (name: string) => numeric(name, { precision: 78, scale: 0 });
const blockNumber = (name: string) => bigint(name, { mode: "bigint" });

export const indexerCheckpoints = pgTable("indexer_checkpoints", {
  chainId: integer("chain_id").primaryKey(),
  collectible: text("collectible").notNull(),
  marketplace: text("marketplace").notNull(),
  blockNumber: blockNumber("block_number").notNull(),
  blockHash: text("block_hash").notNull(),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});

export const indexerBlocks = pgTable(
  "indexer_blocks",
  {
    chainId: integer("chain_id").notNull(),
    blockNumber: blockNumber("block_number").notNull(),
    blockHash: text("block_hash").notNull(),
    blockTime: timestamp("block_time", { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.chainId, t.blockNumber] })],
);

export const indexerEvents = pgTable(
  "indexer_events",
  {
    chainId: integer("chain_id").notNull(),
    txHash: text("tx_hash").notNull(),
    logIndex: integer("log_index").notNull(),
    blockNumber: blockNumber("block_number").notNull(),
    blockHash: text("block_hash").notNull(),
    txIndex: integer("tx_index").notNull(),
    contract: text("contract").notNull(),
    name: text("name").notNull(),
    args: jsonb("args").notNull(),
  },
  (t) => [primaryKey({ columns: [t.chainId, t.txHash, t.logIndex] })],
);

export const indexerUndo = pgTable("indexer_undo", {
  id: bigserial("id", { mode: "number" }).primaryKey(),
  chainId: integer("chain_id").notNull(),
  fromBlock: blockNumber("from_block").notNull(),
  blockNumber: blockNumber("block_number").notNull(),
  tbl: text("tbl").notNull(),
  key: jsonb("key").notNull(),
  oldRow: jsonb("old_row"),
});

// ---------------------------------------------------------------- mutable projections

export const indexerTokens = pgTable(
  "indexer_tokens",
  {
    chainId: integer("chain_id").notNull(),
    tokenId: uint256("token_id").notNull(),
    nftNumber: blockNumber("nft_number").notNull(),
    edition: integer("edition").notNull(),
    owner: text("owner").notNull(),
    version: integer("version").notNull().default(0),
    royaltyReceiver: text("royalty_receiver").notNull(),
    royaltyBps: integer("royalty_bps").notNull(),
    mintedBlock: blockNumber("minted_block").notNull(),
  },
  (t) => [primaryKey({ columns: [t.chainId, t.tokenId] })],
);

export const indexerOperatorApprovals = pgTable(
  "indexer_operator_approvals",
  {
    chainId: integer("chain_id").notNull(),
    owner: text("owner").notNull(),
    operator: text("operator").notNull(),
    approved: boolean("approved").notNull(),
  },
  (t) => [primaryKey({ columns: [t.chainId, t.owner, t.operator] })],
);

export const indexerOwnerEpochs = pgTable(
  "indexer_owner_epochs",
  {
    chainId: integer("chain_id").notNull(),
    owner: text("owner").notNull(),
    epoch: integer("epoch").notNull(),
  },
  (t) => [primaryKey({ columns: [t.chainId, t.owner] })],
);

export const indexerListings = pgTable(
  "indexer_listings",
  {
    chainId: integer("chain_id").notNull(),
    tokenId: uint256("token_id").notNull(),
    seller: text("seller").notNull(),
    priceWei: uint256("price_wei").notNull(),
    tokenVersion: integer("token_version").notNull(),
    ownerEpoch: integer("owner_epoch").notNull(),
    feeBps: integer("fee_bps").notNull(),
    royaltyBps: integer("royalty_bps").notNull(),
  },
  (t) => [primaryKey({ columns: [t.chainId, t.tokenId] })],
);

export const indexerAuctions = pgTable(
  "indexer_auctions",
  {
    chainId: integer("chain_id").notNull(),
    tokenId: uint256("token_id").notNull(),
    seller: text("seller").notNull(),
    reserveWei: uint256("reserve_wei").notNull(),
    durationDays: integer("duration_days").notNull(),
    /** Fixed at the auction's creation (migration 0140). */
    minIncrementBps: integer("min_increment_bps"),
    highestBidWei: uint256("highest_bid_wei"),
    highestBidder: text("highest_bidder"),
    endsAt: blockNumber("ends_at"),
    status: text("status").notNull(),
    settledVersion: integer("settled_version"),
    createdBlock: blockNumber("created_block").notNull(),
  },
  (t) => [primaryKey({ columns: [t.chainId, t.tokenId] })],
);

// ---------------------------------------------------------------- history (append-only)

const historyColumns = {
  chainId: integer("chain_id").notNull(),
  blockNumber: blockNumber("block_number").notNull(),
  logIndex: integer("log_index").notNull(),
  txHash: text("tx_hash").notNull(),
  blockTime: timestamp("block_time", { withTimezone: true }).notNull(),
  tokenId: uint256("token_id").notNull(),
};

export const indexerTransfers = pgTable(
  "indexer_transfers",
  { ...historyColumns, fromAddress: text("from_address").notNull(), toAddress: text("to_address").notNull() },
  (t) => [primaryKey({ columns: [t.chainId, t.blockNumber, t.logIndex] })],
);

export const indexerBids = pgTable(
  "indexer_bids",
  {
    ...historyColumns,
    bidder: text("bidder").notNull(),
    amountWei: uint256("amount_wei").notNull(),
    endsAt: blockNumber("ends_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.chainId, t.blockNumber, t.logIndex] })],
);

export const indexerSales = pgTable(
  "indexer_sales",
  {
    ...historyColumns,
    kind: text("kind").notNull(),
    seller: text("seller").notNull(),
    buyer: text("buyer").notNull(),
    priceWei: uint256("price_wei").notNull(),
    royaltyWei: uint256("royalty_wei").notNull(),
    feeWei: uint256("fee_wei").notNull(),
  },
  (t) => [primaryKey({ columns: [t.chainId, t.blockNumber, t.logIndex] })],
);

export const indexerNotifications = pgTable("indexer_notifications", {
  id: bigserial("id", { mode: "number" }).primaryKey(),
  chainId: integer("chain_id").notNull(),
  blockNumber: blockNumber("block_number").notNull(),
  logIndex: integer("log_index").notNull(),
  txHash: text("tx_hash").notNull(),
  kind: text("kind").notNull(),
  recipient: text("recipient").notNull(),
  tokenId: uint256("token_id").notNull(),
  amountWei: uint256("amount_wei"),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
});
