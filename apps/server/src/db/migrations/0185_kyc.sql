-- Issue 25 point 3: identity verification (KYC) before money goes out (docs/decisions/175-kyc.md).
-- One row per attempt at the provider. No identity document, number, name or picture is stored here:
-- the provider keeps them; we keep its reference (provider_ref) and its result.
CREATE TABLE kyc_checks (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  user_id uuid NOT NULL REFERENCES users(id),
  provider text NOT NULL,
  -- The provider's id of this verification session (its hosted page).
  session text NOT NULL UNIQUE,
  state text NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'verified', 'rejected')),
  -- The provider's reference of the applicant's record (what an auditor asks the provider about).
  provider_ref text,
  -- The provider's reason for a rejection (its words, no document data).
  reason text CHECK (reason IS NULL OR length(reason) <= 500),
  created_at timestamptz NOT NULL,
  decided_at timestamptz,
  CHECK ((state = 'pending') = (decided_at IS NULL))
);
CREATE INDEX kyc_checks_user_idx ON kyc_checks (user_id, created_at DESC);

-- Each provider event is applied once: a duplicate delivery finds its row here.
CREATE TABLE kyc_events (
  provider text NOT NULL,
  event_id text NOT NULL,
  received_at timestamptz NOT NULL,
  PRIMARY KEY (provider, event_id)
);
