-- The studio console (issue 13, decision 132): a studio role tied to one production house, the
-- audit log of every console action, and tokens hidden from our marketplace.

-- A studio account manages the films and NFTs of its own production house only.
ALTER TABLE users DROP CONSTRAINT IF EXISTS users_role_check;
ALTER TABLE users ADD CONSTRAINT users_role_check CHECK (role IN ('user', 'admin', 'studio'));
ALTER TABLE users ADD COLUMN production_house_id integer REFERENCES production_houses (id);
ALTER TABLE users ADD CONSTRAINT users_studio_house_check
  CHECK ((role = 'studio') = (production_house_id IS NOT NULL));

-- Who did what to which thing, and when, with the thing before and after (JSON). Written in the
-- same transaction as the change it records; never updated or deleted by the application.
CREATE TABLE admin_audit_log (
  id bigserial PRIMARY KEY,
  actor_id uuid REFERENCES users (id) ON DELETE SET NULL,
  -- Kept as written: the log still names the actor after the account changes or goes.
  actor_email text NOT NULL,
  actor_role text NOT NULL,
  action text NOT NULL CHECK (action ~ '^[a-z_]+\.[a-z_]+$'),
  subject_type text NOT NULL,
  subject_id text NOT NULL,
  before jsonb,
  after jsonb,
  created_at timestamptz NOT NULL DEFAULT clock_timestamp()
);
CREATE INDEX admin_audit_log_created_idx ON admin_audit_log (created_at DESC, id DESC);
CREATE INDEX admin_audit_log_subject_idx ON admin_audit_log (subject_type, subject_id);

-- Tokens hidden from our marketplace (the terms' suspension and voiding): the chain still holds
-- them; our pages and API stop offering them.
CREATE TABLE hidden_tokens (
  token_id numeric(78, 0) PRIMARY KEY CHECK (token_id >= 0),
  reason text NOT NULL CHECK (reason IN ('suspended', 'voided')),
  note text NOT NULL DEFAULT '' CHECK (length(note) <= 500),
  hidden_by uuid REFERENCES users (id) ON DELETE SET NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
