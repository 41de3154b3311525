-- Passkey wallets (docs/decisions/160-passkey-wallets.md): a wallet is either an external wallet linked by
-- Sign-In with Ethereum or our ERC-4337 account of a passkey, whose public key and credential id we keep
-- (public data: the private key never leaves the fan's authenticator).
ALTER TABLE wallets ADD COLUMN kind text NOT NULL DEFAULT 'siwe' CHECK (kind IN ('siwe', 'passkey'));

CREATE TABLE passkey_credentials (
  credential_id text PRIMARY KEY CHECK (credential_id ~ '^[A-Za-z0-9_-]+$' AND char_length(credential_id) <= 1400),
  address text NOT NULL UNIQUE REFERENCES wallets(address) ON DELETE CASCADE,
  user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  -- x || y of the P-256 key, 0x-prefixed hex (64 bytes).
  public_key text NOT NULL CHECK (public_key ~ '^0x[0-9a-f]{128}$'),
  created_at timestamptz NOT NULL
);
CREATE INDEX passkey_credentials_user_idx ON passkey_credentials (user_id);

-- The wallet contracts of a deployment (null for deployments made before them).
ALTER TABLE chain_deployments ADD COLUMN account_factory text;
ALTER TABLE chain_deployments ADD COLUMN paymaster text;
