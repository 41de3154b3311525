-- Refunds (issue 24 point 1; docs/decisions/144-refunds.md). An order being refunded is
-- `refund_pending`, then `refunded` or `refund_failed` (the console can retry).
ALTER TABLE orders DROP CONSTRAINT orders_state_check;
ALTER TABLE orders ADD CONSTRAINT orders_state_check CHECK (state IN
  ('created', 'awaiting_payment', 'paid', 'minting', 'fulfilled', 'failed', 'expired', 'cancelled',
   'refund_pending', 'refunded', 'refund_failed'));

-- The provider's id of the payment itself (Stripe: the PaymentIntent pi_…), kept when it is paid: what a refund names.
ALTER TABLE orders ADD COLUMN provider_payment_ref text;

-- A refunded order whose token was minted (tx_hash set) keeps its edition: the token is not taken
-- back. One refunded before it was minted (a late payment for an expired order) holds none.
DROP INDEX orders_live_edition_idx;
CREATE UNIQUE INDEX orders_live_edition_idx ON orders (nft_id, edition)
  WHERE state NOT IN ('failed', 'expired', 'cancelled', 'refund_pending', 'refunded', 'refund_failed')
     OR (state IN ('refund_pending', 'refunded', 'refund_failed') AND tx_hash IS NOT NULL);
DROP INDEX orders_one_per_quote_idx;
CREATE UNIQUE INDEX orders_one_per_quote_idx ON orders (quote_id)
  WHERE quote_id IS NOT NULL
    AND state NOT IN ('failed', 'expired', 'cancelled', 'refund_pending', 'refunded', 'refund_failed');

-- One refund per order and reason, whatever crashes or duplicate webhooks happen: the row is
-- inserted (ON CONFLICT DO NOTHING) in the transaction of its cause, with its job.
CREATE TABLE order_refunds (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  order_id uuid NOT NULL REFERENCES orders (id) ON DELETE CASCADE,
  reason text NOT NULL CHECK (reason IN ('late_payment', 'admin', 'lottery_not_activated')),
  amount_minor bigint NOT NULL CHECK (amount_minor > 0),
  currency text NOT NULL,
  -- pending: the job has not had the provider's answer; requested: the provider took it;
  -- succeeded / failed: the provider confirmed (webhook, its answer, or reconciliation).
  state text NOT NULL CHECK (state IN ('pending', 'requested', 'succeeded', 'failed')),
  -- Bumped by a retry after a failure: the idempotency key is `refund:<order>:<reason>:<attempt>`.
  attempt integer NOT NULL DEFAULT 1 CHECK (attempt >= 1),
  provider_refund_id text,
  detail text,
  requested_by uuid REFERENCES users (id) ON DELETE SET NULL,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  UNIQUE (order_id, reason)
);
CREATE INDEX order_refunds_open_idx ON order_refunds (updated_at) WHERE state IN ('pending', 'requested');

-- The buyer is told in the bell when an order is refunded (the refund's own mail says it by email).
ALTER TABLE notifications DROP CONSTRAINT notifications_kind_check;
ALTER TABLE notifications ADD CONSTRAINT notifications_kind_check CHECK (kind IN
  ('outbid', 'auction_won', 'auction_ended', 'nft_sold', 'purchase_confirmed', 'new_follower', 'order_refunded'));
