-- Stripe and Cashfree checkouts (docs/decisions/142-stripe-and-cashfree-adapters.md): what the payer is
-- charged at the provider (integer minor units in the provider's currency), the USD→INR rate an INR
-- price was converted at, and where the payer pays (the provider's hosted page, or ours).
ALTER TABLE orders ADD COLUMN pay_currency text CHECK (pay_currency IS NULL OR pay_currency IN ('usd', 'inr'));
ALTER TABLE orders ADD COLUMN pay_amount_minor bigint CHECK (pay_amount_minor IS NULL OR pay_amount_minor > 0);
ALTER TABLE orders ADD COLUMN inr_micros_per_usd bigint;
ALTER TABLE orders ADD COLUMN checkout_url text;
-- Cashfree's payment_session_id (its checkout is opened with it by cashfree.js).
ALTER TABLE orders ADD COLUMN provider_payment_session text;
