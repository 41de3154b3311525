-- Lotteries (issue 24, docs/decisions/161-lotteries-commit-reveal-draw.md): a commit-reveal draw that
-- anyone can recompute from the public API. The seed is secret until the draw; its sha256 is public
-- from creation. Counts are derived from paid ticket orders in the transaction that pays them.
CREATE TABLE lotteries (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  name text NOT NULL,
  image_url text,
  -- A studio account's lottery belongs to its production house; null for administrators' lotteries.
  production_house_id integer REFERENCES production_houses (id),
  ticket_price_cents bigint NOT NULL CHECK (ticket_price_cents > 0),
  min_tickets integer NOT NULL CHECK (min_tickets >= 1),
  max_tickets_per_user integer CHECK (max_tickets_per_user IS NULL OR max_tickets_per_user >= 1),
  prize_kind text NOT NULL CHECK (prize_kind IN ('nft', 'pool')),
  prize_nft_id text REFERENCES nfts (id) ON DELETE RESTRICT,
  prize_pool_cents bigint CHECK (prize_pool_cents IS NULL OR prize_pool_cents > 0),
  rules text NOT NULL DEFAULT '',
  opens_at timestamptz NOT NULL,
  closes_at timestamptz NOT NULL,
  -- The commitment: 32 secret bytes and their sha256, published at creation.
  seed bytea NOT NULL CHECK (octet_length(seed) = 32),
  seed_hash bytea NOT NULL CHECK (octet_length(seed_hash) = 32),
  -- Blocks after the closing block whose hash enters the draw (LOTTERY_DRAW_BLOCKS when created).
  draw_blocks integer NOT NULL CHECK (draw_blocks >= 1),
  -- 'open' covers scheduled (before opens_at) too: the state readers see is derived from the clock.
  state text NOT NULL DEFAULT 'open' CHECK (state IN ('open', 'closed', 'drawn', 'not_activated')),
  -- Kept in the transaction that pays a ticket order (never from anything else).
  tickets_sold bigint NOT NULL DEFAULT 0 CHECK (tickets_sold >= 0),
  players integer NOT NULL DEFAULT 0 CHECK (players >= 0),
  -- Closing: the chain's latest block then, and sha256 of tickets.csv.
  closed_at timestamptz,
  close_block bigint,
  ticket_list_hash bytea,
  -- The draw.
  draw_block bigint,
  draw_block_hash bytea,
  winning_ticket bigint,
  winner_order_id uuid,
  winner_user_id uuid REFERENCES users (id) ON DELETE SET NULL,
  drawn_at timestamptz,
  outcome text,
  created_by uuid REFERENCES users (id) ON DELETE SET NULL,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  CHECK (closes_at > opens_at),
  CHECK ((prize_kind = 'nft') = (prize_nft_id IS NOT NULL)),
  CHECK ((prize_kind = 'pool') = (prize_pool_cents IS NOT NULL))
);
CREATE INDEX lotteries_due_idx ON lotteries (closes_at) WHERE state IN ('open', 'closed');
CREATE INDEX lotteries_list_idx ON lotteries (closes_at DESC);

-- One row per paid ticket order: its contiguous range of ticket numbers, in payment order.
CREATE TABLE lottery_entries (
  order_id uuid PRIMARY KEY,
  lottery_id uuid NOT NULL REFERENCES lotteries (id) ON DELETE RESTRICT,
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE RESTRICT,
  first_ticket bigint NOT NULL CHECK (first_ticket >= 1),
  last_ticket bigint NOT NULL CHECK (last_ticket >= first_ticket),
  paid_at timestamptz NOT NULL,
  UNIQUE (lottery_id, first_ticket)
);
CREATE INDEX lottery_entries_user_idx ON lottery_entries (user_id, lottery_id);

-- tickets.csv exactly as published at closing (its sha256 is the draw's ticket_list_hash).
CREATE TABLE lottery_ticket_lists (
  lottery_id uuid PRIMARY KEY REFERENCES lotteries (id) ON DELETE CASCADE,
  csv bytea NOT NULL
);
