-- Unpaid holds (issue 23 point 1, issue 28 point 2; docs/decisions/143-unpaid-holds-and-cancelled-orders.md).
-- A buyer may cancel an unpaid order: the new state `cancelled` ends it like `expired` does.
ALTER TABLE orders DROP CONSTRAINT orders_state_check;
ALTER TABLE orders ADD CONSTRAINT orders_state_check CHECK (state IN
  ('created', 'awaiting_payment', 'paid', 'minting', 'fulfilled', 'failed', 'expired', 'cancelled', 'refunded'));

-- An edition belongs to at most one order that is not over (a cancelled order is over).
DROP INDEX orders_live_edition_idx;
CREATE UNIQUE INDEX orders_live_edition_idx ON orders (nft_id, edition)
  WHERE state NOT IN ('failed', 'expired', 'cancelled', 'refunded');

-- One unpaid order per fan per NFT: a second tab or a double-click cannot start a second purchase,
-- however the requests interleave (the insert of the second one violates this index).
CREATE UNIQUE INDEX orders_one_unpaid_per_nft_idx ON orders (user_id, nft_id)
  WHERE state IN ('created', 'awaiting_payment');

-- One live order per wallet quote (a quote reserved two editions before).
CREATE UNIQUE INDEX orders_one_per_quote_idx ON orders (quote_id)
  WHERE quote_id IS NOT NULL AND state NOT IN ('failed', 'expired', 'cancelled', 'refunded');

-- The caps count an account's and an address's unpaid holds.
CREATE INDEX orders_unpaid_buyer_idx ON orders (buyer_address) WHERE state IN ('created', 'awaiting_payment');
