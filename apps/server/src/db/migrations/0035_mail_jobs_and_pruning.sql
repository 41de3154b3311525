-- Mail is sent by durable jobs (decision 060). A job may run again after a crash; this records
-- which mail jobs have been delivered so a repeat sends nothing (exactly once into the dev
-- mailbox, where the record and the mail commit together).
CREATE TABLE mail_deliveries (
  job_id uuid PRIMARY KEY,
  delivered_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX mail_deliveries_delivered_idx ON mail_deliveries (delivered_at);

-- The prune job deletes never-verified accounts after UNVERIFIED_ACCOUNT_DAYS.
CREATE INDEX users_unverified_created_idx ON users (created_at) WHERE email_verified_at IS NULL;
-- The per-user session cap keeps the most recently used sessions.
CREATE INDEX sessions_user_seen_idx ON sessions (user_id, last_seen_at DESC);
-- Used and expired tokens are pruned.
CREATE INDEX auth_tokens_expires_idx ON auth_tokens (expires_at);
