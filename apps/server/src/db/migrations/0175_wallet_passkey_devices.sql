-- Several passkeys per passkey wallet (docs/decisions/171-second-passkey-and-recovery-pages.md): the fan's
-- other devices. A device signed in to the same account asks to be added with a new passkey (a pending
-- request, proven by its assertion over a wallet nonce); a passkey the wallet already has approves it by
-- adding the key on chain (a user operation); the server then records the credential. The server never
-- adds a passkey itself: it keeps public keys only, and a request it holds changes nothing on chain.
ALTER TABLE passkey_credentials DROP CONSTRAINT passkey_credentials_address_key;
CREATE INDEX passkey_credentials_address_idx ON passkey_credentials (address, created_at);

CREATE TABLE wallet_passkey_requests (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  address text NOT NULL REFERENCES wallets(address) ON DELETE CASCADE,
  credential_id text NOT NULL CHECK (credential_id ~ '^[A-Za-z0-9_-]+$' AND char_length(credential_id) <= 1400),
  -- x || y of the new P-256 key, 0x-prefixed lower-case hex (64 bytes).
  public_key text NOT NULL CHECK (public_key ~ '^0x[0-9a-f]{128}$'),
  -- 'pending' (waiting for a passkey of the wallet), 'added' (on chain and recorded), 'declined', 'expired'.
  state text NOT NULL CHECK (state IN ('pending', 'added', 'declined', 'expired')),
  created_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL,
  finished_at timestamptz
);
CREATE INDEX wallet_passkey_requests_address_idx ON wallet_passkey_requests (address, created_at DESC);
CREATE UNIQUE INDEX wallet_passkey_requests_pending_idx ON wallet_passkey_requests (credential_id)
  WHERE state = 'pending';
