-- The day's stored rates (issue 25 point 5, decision 176): the first time a day's rates are asked for,
-- the rates provider's answer is kept for that day (India Standard Time), so every tax record of the day
-- is valued at one rate and a statement made years later shows the rate used. Owned by quotes.
CREATE TABLE daily_rates (
  day date PRIMARY KEY,
  -- USD micro-dollars per whole native token, by symbol: {"ETH": "3000000000", ...}
  usd_micros_per_token jsonb NOT NULL,
  inr_micros_per_usd bigint NOT NULL CHECK (inr_micros_per_usd > 0),
  provider text NOT NULL,
  recorded_at timestamptz NOT NULL
);
