-- The chain indexer (docs/decisions/110-indexer.md): a mirror of our contracts' events.
-- Every row carries chain_id. Token ids and wei amounts are numeric(78,0) (uint256).

-- Where the indexer of a chain stands: the last applied block (number and hash) and the contracts it reads.
CREATE TABLE indexer_checkpoints (
  chain_id integer PRIMARY KEY,
  collectible text NOT NULL,
  marketplace text NOT NULL,
  block_number bigint NOT NULL,
  block_hash text NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now()
);

-- Hashes of recently applied blocks (every block with events, and each batch's last block):
-- a reorganisation is found by comparing them with the chain, and walked back to the common ancestor.
CREATE TABLE indexer_blocks (
  chain_id integer NOT NULL,
  block_number bigint NOT NULL,
  block_hash text NOT NULL,
  block_time timestamptz NOT NULL,
  PRIMARY KEY (chain_id, block_number)
);

-- Every applied log, once: (chain_id, tx_hash, log_index) makes applying idempotent.
CREATE TABLE indexer_events (
  chain_id integer NOT NULL,
  tx_hash text NOT NULL,
  log_index integer NOT NULL,
  block_number bigint NOT NULL,
  block_hash text NOT NULL,
  tx_index integer NOT NULL,
  contract text NOT NULL,
  name text NOT NULL,
  args jsonb NOT NULL,
  PRIMARY KEY (chain_id, tx_hash, log_index)
);
CREATE INDEX indexer_events_block_idx ON indexer_events (chain_id, block_number, log_index);

-- Undo journal of the mutable projections: the image of a row before the first change a block made
-- to it (NULL when the row did not exist). Rolling back to block B restores, newest first, every image
-- recorded by blocks after B. Kept only for blocks near the head (the reorg window).
CREATE TABLE indexer_undo (
  id bigserial PRIMARY KEY,
  chain_id integer NOT NULL,
  block_number bigint NOT NULL,
  tbl text NOT NULL,
  key jsonb NOT NULL,
  old_row jsonb
);
CREATE INDEX indexer_undo_block_idx ON indexer_undo (chain_id, block_number);

-- ---------------------------------------------------------------- projections (mutable, journalled)

-- One row per minted token. `version` mirrors DiginoorCollectible's per-token counter (every transfer
-- after the mint and every single-token approval), which decides whether a listing is still live.
CREATE TABLE indexer_tokens (
  chain_id integer NOT NULL,
  token_id numeric(78, 0) NOT NULL,
  nft_number bigint NOT NULL,
  edition integer NOT NULL,
  owner text NOT NULL,
  version integer NOT NULL DEFAULT 0,
  royalty_receiver text NOT NULL,
  royalty_bps integer NOT NULL,
  minted_block bigint NOT NULL,
  PRIMARY KEY (chain_id, token_id)
);
CREATE INDEX indexer_tokens_owner_idx ON indexer_tokens (chain_id, owner);
CREATE INDEX indexer_tokens_nft_idx ON indexer_tokens (chain_id, nft_number);

-- Operator approvals (ApprovalForAll) and each owner's approval epoch (bumped when an approved operator
-- is revoked): a listing records its seller's epoch and dies when it changes.
CREATE TABLE indexer_operator_approvals (
  chain_id integer NOT NULL,
  owner text NOT NULL,
  operator text NOT NULL,
  approved boolean NOT NULL,
  PRIMARY KEY (chain_id, owner, operator)
);
CREATE TABLE indexer_owner_epochs (
  chain_id integer NOT NULL,
  owner text NOT NULL,
  epoch integer NOT NULL,
  PRIMARY KEY (chain_id, owner)
);

-- The stored listing of a token, as the marketplace stores it (live while the token's version and the
-- seller's epoch are those recorded).
CREATE TABLE indexer_listings (
  chain_id integer NOT NULL,
  token_id numeric(78, 0) NOT NULL,
  seller text NOT NULL,
  price_wei numeric(78, 0) NOT NULL,
  token_version integer NOT NULL,
  owner_epoch integer NOT NULL,
  fee_bps integer NOT NULL,
  royalty_bps integer NOT NULL,
  PRIMARY KEY (chain_id, token_id)
);

-- The latest auction of a token. status: open | settled | cancelled. `settled_version` is the token's
-- version at settlement: a settled auction is shown until the token moves again.
CREATE TABLE indexer_auctions (
  chain_id integer NOT NULL,
  token_id numeric(78, 0) NOT NULL,
  seller text NOT NULL,
  reserve_wei numeric(78, 0) NOT NULL,
  duration_days integer NOT NULL,
  highest_bid_wei numeric(78, 0),
  highest_bidder text,
  ends_at bigint,
  status text NOT NULL,
  settled_version integer,
  created_block bigint NOT NULL,
  PRIMARY KEY (chain_id, token_id)
);
CREATE INDEX indexer_auctions_seller_idx ON indexer_auctions (chain_id, seller) WHERE status = 'open';

-- ---------------------------------------------------------------- history (append-only; rollback deletes)

CREATE TABLE indexer_transfers (
  chain_id integer NOT NULL,
  block_number bigint NOT NULL,
  log_index integer NOT NULL,
  tx_hash text NOT NULL,
  block_time timestamptz NOT NULL,
  token_id numeric(78, 0) NOT NULL,
  from_address text NOT NULL,
  to_address text NOT NULL,
  PRIMARY KEY (chain_id, block_number, log_index)
);
CREATE INDEX indexer_transfers_token_idx ON indexer_transfers (chain_id, token_id);

CREATE TABLE indexer_bids (
  chain_id integer NOT NULL,
  block_number bigint NOT NULL,
  log_index integer NOT NULL,
  tx_hash text NOT NULL,
  block_time timestamptz NOT NULL,
  token_id numeric(78, 0) NOT NULL,
  bidder text NOT NULL,
  amount_wei numeric(78, 0) NOT NULL,
  ends_at bigint NOT NULL,
  PRIMARY KEY (chain_id, block_number, log_index)
);
CREATE INDEX indexer_bids_token_idx ON indexer_bids (chain_id, token_id);

-- kind: primary (voucher purchase), listing (resale), auction (settlement).
CREATE TABLE indexer_sales (
  chain_id integer NOT NULL,
  block_number bigint NOT NULL,
  log_index integer NOT NULL,
  tx_hash text NOT NULL,
  block_time timestamptz NOT NULL,
  token_id numeric(78, 0) NOT NULL,
  kind text NOT NULL,
  seller text NOT NULL,
  buyer text NOT NULL,
  price_wei numeric(78, 0) NOT NULL,
  royalty_wei numeric(78, 0) NOT NULL,
  fee_wei numeric(78, 0) NOT NULL,
  PRIMARY KEY (chain_id, block_number, log_index)
);
CREATE INDEX indexer_sales_token_idx ON indexer_sales (chain_id, token_id);

-- Events that concern a user, for the notifications issue to deliver (kind: outbid, auction_won,
-- auction_ended, nft_sold, purchase_confirmed). Addressed to a wallet address.
CREATE TABLE indexer_notifications (
  id bigserial PRIMARY KEY,
  chain_id integer NOT NULL,
  block_number bigint NOT NULL,
  log_index integer NOT NULL,
  tx_hash text NOT NULL,
  kind text NOT NULL,
  recipient text NOT NULL,
  token_id numeric(78, 0) NOT NULL,
  amount_wei numeric(78, 0),
  created_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (chain_id, block_number, log_index, kind)
);
CREATE INDEX indexer_notifications_recipient_idx ON indexer_notifications (recipient, id);
