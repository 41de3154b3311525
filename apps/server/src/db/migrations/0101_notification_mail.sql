-- Issue 12: notification email (decision 152). Which notification kinds a user also receives by
-- email: one row per user and kind once changed; no row means on (the default).
CREATE TABLE notification_preferences (
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  kind text NOT NULL CHECK (kind IN ('outbid', 'auction_won', 'nft_sold', 'purchase_confirmed')),
  email boolean NOT NULL,
  updated_at timestamptz NOT NULL,
  PRIMARY KEY (user_id, kind)
);

-- The dev mailbox keeps the extra headers a mail was sent with (List-Unsubscribe and
-- List-Unsubscribe-Post), so tests and developers can read them.
ALTER TABLE dev_mail ADD COLUMN headers jsonb NOT NULL DEFAULT '{}'::jsonb;
