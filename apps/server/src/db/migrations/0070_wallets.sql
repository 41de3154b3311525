-- Wallets linked to accounts by Sign-In with Ethereum (EIP-4361); docs/decisions/120-wallet-linking-with-siwe.md.

-- Single-use nonces for SIWE messages, issued to one user, valid for 10 minutes.
CREATE TABLE wallet_nonces (
  nonce text PRIMARY KEY CHECK (nonce ~ '^[A-Za-z0-9]{8,128}$'),
  user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  created_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL,
  used_at timestamptz
);
CREATE INDEX wallet_nonces_user_idx ON wallet_nonces (user_id, created_at);
CREATE INDEX wallet_nonces_expires_idx ON wallet_nonces (expires_at);

-- One address belongs to at most one account (the primary key); addresses are stored checksummed.
CREATE TABLE wallets (
  address text PRIMARY KEY CHECK (address ~ '^0x[0-9a-fA-F]{40}$'),
  user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  chain_id integer NOT NULL,
  receives_purchases boolean NOT NULL DEFAULT false,
  linked_at timestamptz NOT NULL
);
CREATE INDEX wallets_user_idx ON wallets (user_id, linked_at);
-- At most one receiving wallet per user.
CREATE UNIQUE INDEX wallets_one_receiving_idx ON wallets (user_id) WHERE receives_purchases;
