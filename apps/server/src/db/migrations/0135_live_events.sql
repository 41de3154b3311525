-- Issue 23 point 15: every live event of a user has an id, and a stream that reconnects with
-- Last-Event-ID is sent what it missed. The user's counter row numbers the events; it is updated in
-- the transaction that publishes the event, so one user's events commit (and are notified) in the
-- order of their ids. The newest events are kept for replay (bounded: REPLAY_EVENTS per user, and
-- REPLAY_HOURS; trimmed at each insert and by the hourly events.prune job). No foreign keys: an
-- event must never make its transaction fail; a deleted user's rows go with the time bound.
CREATE TABLE live_event_counters (
  user_id uuid PRIMARY KEY,
  last_id bigint NOT NULL
);

CREATE TABLE live_events (
  user_id uuid NOT NULL,
  id bigint NOT NULL,
  event jsonb NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (user_id, id)
);
CREATE INDEX live_events_created_at ON live_events (created_at);
