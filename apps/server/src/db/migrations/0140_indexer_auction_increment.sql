-- An auction's minimum increment is fixed at its creation (DiginoorMarketplace records it and announces it in
-- AuctionCreated, issue 22): the auction API computes the next minimum bid with it, not with the marketplace's
-- current increment, which the admin may have changed since. Filled from the recorded AuctionCreated events;
-- NULL only for an auction whose event did not carry it (contracts before issue 9: none on a live chain).
ALTER TABLE indexer_auctions ADD COLUMN min_increment_bps integer;
UPDATE indexer_auctions a SET min_increment_bps = (
  SELECT (e.args->>'minIncrementBps')::integer FROM indexer_events e
   WHERE e.chain_id = a.chain_id AND e.contract = 'marketplace' AND e.name = 'AuctionCreated'
     AND (e.args->>'tokenId') = a.token_id::text
   ORDER BY e.block_number DESC, e.log_index DESC LIMIT 1);
