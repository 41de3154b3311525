-- Issue 25 point 4: what an administrator paid a production house out of the earnings the platform
-- holds for it (docs/decisions/174-studio-earnings.md). The earnings themselves are derived from the
-- orders and the indexed sales at read time; only payouts are written. Amounts are integers in their
-- own currency's minor unit (INR paise, USD cents, wei), never mixed.
CREATE TABLE studio_payouts (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  production_house_id integer NOT NULL REFERENCES production_houses(id),
  currency text NOT NULL CHECK (currency IN ('inr', 'usd', 'wei')),
  amount numeric(78, 0) NOT NULL CHECK (amount > 0),
  reference text NOT NULL CHECK (length(reference) BETWEEN 1 AND 200),
  paid_by uuid NOT NULL REFERENCES users(id),
  created_at timestamptz NOT NULL
);
CREATE INDEX studio_payouts_house_idx ON studio_payouts (production_house_id, created_at);
