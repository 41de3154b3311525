-- Recovery that only the fan controls (docs/decisions/185-recovery-only-the-fan-controls.md): the server
-- holds no guardian key. A recovery carries the guardian's own signature of the new passkey (the key of
-- the fan's recovery code, derived in their browser), which our relayer key sends on chain; the guardian's
-- address is kept to deploy a never-used account (the factory binds it into the account's address).
ALTER TABLE wallet_recoveries ADD COLUMN guardian text CHECK (guardian ~ '^0x[0-9a-fA-F]{40}$');
ALTER TABLE wallet_recoveries ADD COLUMN guardian_signature text
  CHECK (guardian_signature ~ '^0x([0-9a-f]{2})+$' AND char_length(guardian_signature) BETWEEN 132 AND 4002);
-- A passkey wallet's guardian as linked (part of its address: the web app needs it for the first
-- user operation's initCode); null for none and for external wallets.
ALTER TABLE wallets ADD COLUMN guardian text CHECK (guardian ~ '^0x[0-9a-fA-F]{40}$');
-- Relayed proposals are counted per wallet and calendar month (RECOVERY_RELAYS_PER_MONTH).
CREATE INDEX wallet_recoveries_address_idx ON wallet_recoveries (address, confirmed_at);
