-- Where a production house is paid on chain (primary sales net of the platform share) and where its
-- royalties go: an EVM address, set by the studio console or the seed. Without one, that studio's
-- NFTs cannot be bought with crypto yet (the order is refused with a clear message).
ALTER TABLE production_houses ADD COLUMN payout_address text
  CHECK (payout_address IS NULL OR payout_address ~ '^0x[0-9a-fA-F]{40}$');
