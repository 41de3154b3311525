-- Lottery prize delivery (issue 24 point 8; docs/decisions/161-lotteries-commit-reveal-draw.md, "Prizes").
--
-- An NFT prize is one edition of a catalogue NFT minted to the winner's receiving wallet by the
-- minter key. The orders module owns the mint (it owns editions): one prize_mints row per prize,
-- named by its source ('lottery:<id>'), holding its edition like a live order (the free-edition query
-- skips it), with a token number from the same sequence as card orders (the on-chain order id, which
-- the contract mints at most once). A winner without a wallet waits in 'awaiting_wallet'.
CREATE TABLE prize_mints (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  source text NOT NULL UNIQUE,
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE RESTRICT,
  nft_id text NOT NULL REFERENCES nfts (id) ON DELETE RESTRICT,
  edition integer NOT NULL CHECK (edition >= 1),
  token_number bigint NOT NULL UNIQUE DEFAULT nextval('chain_order_numbers'),
  state text NOT NULL CHECK (state IN ('awaiting_wallet', 'minting', 'minted')),
  address text,
  tx_hash text,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  UNIQUE (nft_id, edition),
  CHECK ((state = 'awaiting_wallet') = (address IS NULL))
);
CREATE INDEX prize_mints_waiting_idx ON prize_mints (user_id) WHERE state <> 'minted';

-- A prize pool is owed to the winner once drawn, until an administrator records its payment (audited).
ALTER TABLE lotteries ADD COLUMN prize_paid_at timestamptz;
ALTER TABLE lotteries ADD COLUMN prize_paid_by uuid REFERENCES users (id) ON DELETE SET NULL;
ALTER TABLE lotteries ADD COLUMN prize_payment_reference text;

-- The winner is told they won; every other player gets the result.
ALTER TABLE notifications DROP CONSTRAINT notifications_kind_check;
ALTER TABLE notifications ADD CONSTRAINT notifications_kind_check CHECK (kind IN
  ('outbid', 'auction_won', 'auction_ended', 'nft_sold', 'purchase_confirmed', 'new_follower', 'order_refunded',
   'lottery_won', 'lottery_result'));
