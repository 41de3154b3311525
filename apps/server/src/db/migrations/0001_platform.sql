-- Platform-wide tables: rate-limit buckets shared by every server process.
CREATE EXTENSION IF NOT EXISTS pg_trgm;

CREATE TABLE rate_limit_buckets (
  key text PRIMARY KEY,
  window_start timestamptz NOT NULL,
  count integer NOT NULL
);
CREATE INDEX rate_limit_buckets_window_idx ON rate_limit_buckets (window_start);
