-- Issue 34 points 6 and 7 (docs/decisions/184-editions-on-chain.md):
-- * a paid card order whose edition is already minted on chain (by another token: a voucher signed with a leaked
--   key) or outside the item's on-chain edition count is refunded, never minted twice ('edition_unavailable');
-- * a paid resale whose seller is a wallet ever linked to the buyer's account is refunded ('own_listing');
-- * a paid resale of a token the console hid (suspended or voided) is refunded ('token_hidden').
ALTER TABLE order_refunds DROP CONSTRAINT order_refunds_reason_check;
ALTER TABLE order_refunds ADD CONSTRAINT order_refunds_reason_check CHECK (reason IN
  ('late_payment', 'admin', 'lottery_not_activated', 'lottery_seed_not_revealed', 'listing_changed',
   'edition_unavailable', 'own_listing', 'token_hidden'));

-- Every wallet ever linked to an account, kept when it is unlinked (a resale to one's own old wallet is refused);
-- written by a trigger on every link, whatever path links it. Erased with the account's wallets (data rights).
CREATE TABLE wallet_link_history (
  user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  address text NOT NULL,
  first_linked_at timestamptz NOT NULL,
  PRIMARY KEY (user_id, address)
);
CREATE INDEX wallet_link_history_address_idx ON wallet_link_history (address);
INSERT INTO wallet_link_history (user_id, address, first_linked_at)
  SELECT user_id, address, linked_at FROM wallets ON CONFLICT DO NOTHING;

CREATE FUNCTION wallet_link_history_record() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO wallet_link_history (user_id, address, first_linked_at)
    VALUES (NEW.user_id, NEW.address, NEW.linked_at) ON CONFLICT DO NOTHING;
  RETURN NEW;
END $$;
CREATE TRIGGER wallets_link_history AFTER INSERT ON wallets
  FOR EACH ROW EXECUTE FUNCTION wallet_link_history_record();
