-- Ticket orders (issue 24 point 4; docs/decisions/161-lotteries-commit-reveal-draw.md): a lottery's
-- tickets are bought through the same hosted checkouts, webhooks and jobs as NFTs, so a ticket order is
-- a row of `orders` that names a lottery and a count instead of an NFT and an edition.
ALTER TABLE orders ALTER COLUMN nft_id DROP NOT NULL;
ALTER TABLE orders ALTER COLUMN edition DROP NOT NULL;
ALTER TABLE orders ADD COLUMN lottery_id uuid REFERENCES lotteries (id) ON DELETE RESTRICT;
ALTER TABLE orders ADD COLUMN ticket_count integer CHECK (ticket_count IS NULL OR ticket_count >= 1);
ALTER TABLE orders ADD CONSTRAINT orders_item_check CHECK (
  (nft_id IS NOT NULL AND edition IS NOT NULL AND lottery_id IS NULL AND ticket_count IS NULL)
  OR (nft_id IS NULL AND edition IS NULL AND lottery_id IS NOT NULL AND ticket_count IS NOT NULL));
-- A buyer's ticket orders of one lottery (the per-player cap counts the unpaid ones).
CREATE INDEX orders_lottery_user_idx ON orders (lottery_id, user_id) WHERE lottery_id IS NOT NULL;
