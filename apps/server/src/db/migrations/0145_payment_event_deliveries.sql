-- How many times a provider delivered each event: a duplicate delivery is recorded as one more here
-- (the event itself is applied once). Operators see a provider's retries; tests wait for this
-- positive signal that a duplicate was processed instead of sleeping (issue 21 point 7).
ALTER TABLE payment_events ADD COLUMN deliveries integer NOT NULL DEFAULT 1 CHECK (deliveries >= 1);
