-- Tax records for Indian residents (issue 25 point 5, decision 176). Owned by the tax module.
-- The declared tax residence: no PAN or other identity number is stored.
CREATE TABLE tax_profiles (
  user_id uuid PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
  residence text NOT NULL CHECK (residence IN ('india', 'elsewhere')),
  specified_person boolean NOT NULL DEFAULT true,
  updated_at timestamptz NOT NULL
);

-- One row per purchase or sale of a resident, valued in paise at the day's stored rate when it was
-- recorded; never re-valued. A sale carries the s.194S TDS by the rule of its financial year and the
-- acquisition cost of the token (the seller's last recorded purchase of it), when known.
CREATE TABLE tax_records (
  id bigserial PRIMARY KEY,
  -- Kept when an account is erased (decision 170): the erased account row stays, pseudonymous.
  user_id uuid NOT NULL REFERENCES users(id) ON DELETE RESTRICT,
  side text NOT NULL CHECK (side IN ('purchase', 'sale')),
  -- What it was recorded from: 'order:<uuid>' or 'chain:<chain id>:<block>:<log index>'.
  source text NOT NULL,
  financial_year text NOT NULL,
  occurred_at timestamptz NOT NULL,
  chain_id integer,
  token_id numeric(78, 0),
  title text NOT NULL,
  -- How it was paid: 'crypto' (on chain), 'card' (a card or rupee order), 'auction' (a bid on chain).
  paid_with text NOT NULL CHECK (paid_with IN ('crypto', 'card', 'auction')),
  amount_wei numeric(78, 0),
  symbol text,
  usd_cents bigint,
  value_paise bigint NOT NULL CHECK (value_paise >= 0),
  rate_day date,
  inr_micros_per_usd bigint,
  usd_micros_per_token bigint,
  tds_rate_bps integer NOT NULL DEFAULT 0,
  tds_threshold_paise bigint,
  tds_paise bigint NOT NULL DEFAULT 0 CHECK (tds_paise >= 0),
  tds_treatment text NOT NULL CHECK (tds_treatment IN
    ('not_applicable', 'below_threshold', 'deposited_by_diginoor', 'not_withheld')),
  acquisition_paise bigint,
  recorded_at timestamptz NOT NULL,
  UNIQUE (user_id, side, source)
);
CREATE INDEX tax_records_year_idx ON tax_records (user_id, financial_year, occurred_at);
