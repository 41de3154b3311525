-- The marketplace's Paused/Unpaused events decide an auction's true end after a pause (issue 22): the
-- auction reads look up the latest one per chain.
CREATE INDEX indexer_events_pause_idx ON indexer_events (chain_id, block_number DESC, log_index DESC)
  WHERE contract = 'marketplace' AND name IN ('Paused', 'Unpaused');
