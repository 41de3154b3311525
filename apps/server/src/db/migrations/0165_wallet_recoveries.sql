-- Recovery of a passkey wallet whose every passkey is lost (docs/decisions/160-passkey-wallets.md):
-- a link mailed to the account's address, confirmed from the device of a new passkey; our guardian key
-- then proposes that passkey on chain, where it takes over after the account's 7-day delay unless a
-- passkey of the wallet cancels. Notices go out when the proposal is made, a day before it can complete,
-- and when it completes or is cancelled.
CREATE TABLE wallet_recoveries (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  address text NOT NULL REFERENCES wallets(address) ON DELETE CASCADE,
  -- sha256 of the mailed link's token (the token itself is only in the mail).
  token_hash text NOT NULL UNIQUE,
  state text NOT NULL CHECK (state IN ('requested', 'proposing', 'proposed', 'completed', 'cancelled', 'expired')),
  requested_at timestamptz NOT NULL,
  link_expires_at timestamptz NOT NULL,
  new_credential_id text CHECK (new_credential_id ~ '^[A-Za-z0-9_-]+$' AND char_length(new_credential_id) <= 1400),
  new_public_key text CHECK (new_public_key ~ '^0x[0-9a-f]{128}$'),
  confirmed_at timestamptz,
  proposal_tx text,
  -- chain time from which completeRecovery may run (the account's pendingRecovery().executableAt).
  executable_at timestamptz,
  reminded_at timestamptz,
  finished_at timestamptz
);
CREATE INDEX wallet_recoveries_user_idx ON wallet_recoveries (user_id, requested_at DESC);
-- One recovery under way per wallet (a link may be asked for again while one is only requested).
CREATE UNIQUE INDEX wallet_recoveries_one_live_idx ON wallet_recoveries (address)
  WHERE state IN ('proposing', 'proposed');
CREATE INDEX wallet_recoveries_live_idx ON wallet_recoveries (state) WHERE state IN ('proposing', 'proposed');

ALTER TABLE notifications DROP CONSTRAINT notifications_kind_check;
ALTER TABLE notifications ADD CONSTRAINT notifications_kind_check CHECK (kind IN
  ('outbid', 'auction_won', 'auction_ended', 'nft_sold', 'purchase_confirmed', 'new_follower', 'order_refunded',
   'lottery_won', 'lottery_result', 'wallet_recovery'));
