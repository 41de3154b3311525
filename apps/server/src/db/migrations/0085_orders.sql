-- Orders (docs/decisions/140-orders-and-crypto-checkout.md): one per purchase attempt, whatever the
-- provider. The on-chain order id (and so the minted token id) is the order's `number`, drawn from a
-- sequence shared with primary auctions, so no two things ever mint the same token id.
CREATE SEQUENCE chain_order_numbers START 1;

CREATE TABLE orders (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  number bigint NOT NULL UNIQUE DEFAULT nextval('chain_order_numbers'),
  user_id uuid NOT NULL REFERENCES users(id) ON DELETE RESTRICT,
  nft_id text NOT NULL REFERENCES nfts(id) ON DELETE RESTRICT,
  provider text NOT NULL CHECK (provider IN ('wallet', 'sandbox', 'stripe', 'cashfree')),
  state text NOT NULL CHECK (state IN
    ('created', 'awaiting_payment', 'paid', 'minting', 'fulfilled', 'failed', 'expired', 'refunded')),
  edition integer NOT NULL CHECK (edition >= 1),
  usd_cents bigint NOT NULL CHECK (usd_cents > 0),
  quote_id uuid REFERENCES quotes(id) ON DELETE SET NULL,
  chain_id integer,
  price_wei numeric(78, 0) CHECK (price_wei IS NULL OR price_wei > 0),
  -- The platform's share signed into a wallet order's voucher (so the voucher can be rebuilt as signed).
  platform_fee_bps integer CHECK (platform_fee_bps IS NULL OR platform_fee_bps BETWEEN 0 AND 10000),
  payout_address text,
  -- The voucher's expiry in chain time (unix seconds): the reservation's end moved by how far the chain's
  -- clock ran ahead of ours when the order was made (a development chain whose time was advanced).
  voucher_expiry bigint,
  buyer_address text,
  tx_hash text,
  -- The edition is held for this order until then; afterwards a scheduled job releases it.
  reserved_until timestamptz NOT NULL,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);
CREATE INDEX orders_user_idx ON orders (user_id, created_at DESC);
CREATE INDEX orders_open_idx ON orders (reserved_until) WHERE state IN ('created', 'awaiting_payment', 'minting');
-- An edition belongs to at most one order that is not over.
CREATE UNIQUE INDEX orders_live_edition_idx ON orders (nft_id, edition)
  WHERE state NOT IN ('failed', 'expired', 'refunded');

CREATE TABLE order_transitions (
  id bigserial PRIMARY KEY,
  order_id uuid NOT NULL REFERENCES orders(id) ON DELETE CASCADE,
  from_state text,
  to_state text NOT NULL,
  cause text NOT NULL,
  at timestamptz NOT NULL
);
CREATE INDEX order_transitions_order_idx ON order_transitions (order_id, id);

-- Primary auctions of catalogue NFTs run on the marketplace contract: the platform's minter key mints
-- the edition to itself and puts it up for auction (one edition of an NFT at a time).
CREATE TABLE primary_auctions (
  nft_id text NOT NULL REFERENCES nfts(id) ON DELETE RESTRICT,
  edition integer NOT NULL CHECK (edition >= 1),
  chain_id integer NOT NULL,
  token_id numeric(78, 0) NOT NULL UNIQUE DEFAULT nextval('chain_order_numbers'),
  reserve_wei numeric(78, 0) NOT NULL CHECK (reserve_wei > 0),
  duration_days integer NOT NULL CHECK (duration_days BETWEEN 1 AND 365),
  state text NOT NULL CHECK (state IN ('opening', 'open', 'failed')),
  tx_hash text,
  error text,
  created_at timestamptz NOT NULL,
  PRIMARY KEY (chain_id, nft_id, edition)
);
