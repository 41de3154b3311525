-- Card and UPI purchases of resale listings (issue 27 point 4; docs/decisions/165-card-resale.md).
-- A resale order buys a live listing of an existing token with our buyer key and sends the token to
-- the fan's wallet: it mints nothing and holds no edition of its NFT.
ALTER TABLE orders ADD COLUMN kind text NOT NULL DEFAULT 'primary' CHECK (kind IN ('primary', 'resale'));
-- The listed token, and its seller and price (wei, in `price_wei`) when the order was quoted: the
-- listing is bought only while they are unchanged, otherwise the order is refunded.
ALTER TABLE orders ADD COLUMN resale_token_id numeric(78, 0);
ALTER TABLE orders ADD COLUMN listing_seller text;
ALTER TABLE orders ADD CONSTRAINT orders_resale_terms_check CHECK (
  kind = 'primary' OR (resale_token_id IS NOT NULL AND listing_seller IS NOT NULL AND price_wei IS NOT NULL));

-- Editions are held by primary orders only (a resale order carries its token's edition for display).
DROP INDEX orders_live_edition_idx;
CREATE UNIQUE INDEX orders_live_edition_idx ON orders (nft_id, edition)
  WHERE kind = 'primary' AND (
    state NOT IN ('failed', 'expired', 'cancelled', 'refund_pending', 'refunded', 'refund_failed')
     OR (state IN ('refund_pending', 'refunded', 'refund_failed') AND tx_hash IS NOT NULL));

-- One order at a time buys a given token (state `minting` = buying and delivering): while it does,
-- the buyer key's holding of the token is that order's, never another's.
CREATE UNIQUE INDEX orders_one_buying_per_token_idx ON orders (chain_id, resale_token_id)
  WHERE kind = 'resale' AND state = 'minting';

-- A paid resale whose listing was cancelled, sold, repriced or changed hands is refunded.
ALTER TABLE order_refunds DROP CONSTRAINT order_refunds_reason_check;
ALTER TABLE order_refunds ADD CONSTRAINT order_refunds_reason_check CHECK (reason IN
  ('late_payment', 'admin', 'lottery_not_activated', 'lottery_seed_not_revealed', 'listing_changed'));
