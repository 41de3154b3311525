-- Hosted-checkout payments (docs/decisions/141-sandbox-provider-and-fulfilment.md): the provider's
-- checkout session of an order, and every webhook event applied, once per provider event id.
ALTER TABLE orders ADD COLUMN provider_session text;
CREATE UNIQUE INDEX orders_provider_session_idx ON orders (provider, provider_session)
  WHERE provider_session IS NOT NULL;
-- Card orders paid but not yet minted are looked at by the reconciler too.
CREATE INDEX orders_paid_idx ON orders (updated_at) WHERE state IN ('paid', 'minting');

CREATE TABLE payment_events (
  provider text NOT NULL,
  event_id text NOT NULL,
  order_id uuid REFERENCES orders(id) ON DELETE CASCADE,
  type text NOT NULL,
  -- What the event did: 'applied', 'ignored: <why>'.
  outcome text NOT NULL,
  received_at timestamptz NOT NULL,
  PRIMARY KEY (provider, event_id)
);
