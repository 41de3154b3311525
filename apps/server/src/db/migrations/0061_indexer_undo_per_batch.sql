-- Undo images per batch instead of per block (docs/decisions/110-indexer.md): an image is the row before
-- the first change a batch made to it, tagged with the batch's blocks (from_block .. block_number).
-- Rolling back to block B restores the images of every batch that ends after B; a batch that straddles
-- B is undone whole, the rollback lands on the block before it and re-applies from there.
-- Images written before this migration were per block: each is a batch of one block.
ALTER TABLE indexer_undo ADD COLUMN from_block bigint;
UPDATE indexer_undo SET from_block = block_number;
ALTER TABLE indexer_undo ALTER COLUMN from_block SET NOT NULL;
