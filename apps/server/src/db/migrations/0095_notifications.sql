-- Notifications stored per user (issue 12): what happened, a line of text, where it leads, read or not.
-- `source` names what caused it (e.g. the indexer's notification row), so delivering it twice stores one.
CREATE TABLE notifications (
  id bigserial PRIMARY KEY,
  user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  kind text NOT NULL CHECK (kind IN
    ('outbid', 'auction_won', 'auction_ended', 'nft_sold', 'purchase_confirmed', 'new_follower')),
  text text NOT NULL CHECK (length(text) BETWEEN 1 AND 300),
  link text NOT NULL CHECK (link ~ '^/'),
  source text NOT NULL UNIQUE,
  read_at timestamptz,
  created_at timestamptz NOT NULL
);
CREATE INDEX notifications_user_idx ON notifications (user_id, id DESC);
CREATE INDEX notifications_unread_idx ON notifications (user_id) WHERE read_at IS NULL;

-- How far each chain's indexer notifications have been turned into user notifications.
CREATE TABLE notification_cursors (
  chain_id integer PRIMARY KEY,
  last_id bigint NOT NULL
);
