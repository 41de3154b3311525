-- Sponsorships the server signed for its verifying paymaster (issue 34, decision 180): one row per user
-- operation (sender, nonce), at the operation's maximum cost in wei. The per-fan and the global daily
-- budgets sum these rows; signing the same operation again replaces its row. Owned by wallets.
CREATE TABLE sponsorships (
  sender text NOT NULL,
  nonce text NOT NULL,
  user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  day date NOT NULL,
  max_cost_wei numeric(78, 0) NOT NULL CHECK (max_cost_wei >= 0),
  signed_at timestamptz NOT NULL,
  PRIMARY KEY (sender, nonce)
);
CREATE INDEX sponsorships_day_user_idx ON sponsorships (day, user_id);
