-- Price quotes in the chain's native token for catalogue NFTs priced in USD cents
-- (docs/decisions/121-rates-and-quotes.md). Integers only: wei in numeric(78,0), rates in micro-units.
CREATE TABLE quotes (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  nft_id text NOT NULL REFERENCES nfts(id) ON DELETE CASCADE,
  chain_id integer NOT NULL,
  symbol text NOT NULL,
  usd_cents bigint NOT NULL CHECK (usd_cents > 0),
  price_wei numeric(78, 0) NOT NULL CHECK (price_wei > 0),
  -- USD micro-dollars (1e-6 USD) per one whole native token.
  usd_micros_per_token bigint NOT NULL CHECK (usd_micros_per_token > 0),
  -- INR micro-rupees per one USD.
  inr_micros_per_usd bigint NOT NULL CHECK (inr_micros_per_usd > 0),
  created_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL CHECK (expires_at > created_at)
);
CREATE INDEX quotes_user_idx ON quotes (user_id, created_at);
CREATE INDEX quotes_expires_idx ON quotes (expires_at);
