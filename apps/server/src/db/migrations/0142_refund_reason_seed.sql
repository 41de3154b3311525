-- A lottery whose seed is not revealed in time is refunded too (decision 144, decision 161).
ALTER TABLE order_refunds DROP CONSTRAINT order_refunds_reason_check;
ALTER TABLE order_refunds ADD CONSTRAINT order_refunds_reason_check CHECK (reason IN
  ('late_payment', 'admin', 'lottery_not_activated', 'lottery_seed_not_revealed'));
