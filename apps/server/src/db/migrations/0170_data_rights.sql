-- Issue 25 point 2: data rights under the DPDP Act 2023 (docs/decisions/170-data-rights.md).

-- An erased account keeps its row (orders, tickets and prizes still name it) with no personal data
-- left in it; deleted_at says when.
ALTER TABLE users ADD COLUMN deleted_at timestamptz;

-- The handles of erased accounts, as sha256 of the handle only (the handle itself is personal data):
-- no new account gets one of them before free_after, so nobody can pose as the erased person.
CREATE TABLE released_handles (
  handle_sha256 text PRIMARY KEY,
  free_after timestamptz NOT NULL
);

CREATE OR REPLACE FUNCTION users_default_handle() RETURNS trigger AS $$
DECLARE
  base text;
BEGIN
  IF NEW.handle IS NULL THEN
    base := trim(both '-' from left(regexp_replace(lower(NEW.name), '[^a-z0-9]+', '-', 'g'), 20));
    IF base = '' THEN base := 'fan'; END IF;
    NEW.handle := base || '-' || substr(replace(NEW.id::text, '-', ''), 1, 6);
    -- A handle still held for an erased account: take another suffix.
    WHILE EXISTS (SELECT 1 FROM released_handles
                   WHERE handle_sha256 = encode(sha256(convert_to(NEW.handle, 'UTF8')), 'hex')
                     AND free_after > now()) LOOP
      NEW.handle := base || '-' || substr(md5(random()::text), 1, 6);
    END LOOP;
  END IF;
  RETURN NEW;
END;
$$ LANGUAGE plpgsql;

-- One-time links of the data rights: an archive's download (kind 'export', the archive kept until
-- it is downloaded or expires) and a Google-only account's deletion confirmation (kind 'delete').
CREATE TABLE data_requests (
  token_hash text PRIMARY KEY,
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  kind text NOT NULL CHECK (kind IN ('export', 'delete')),
  archive jsonb,
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  used_at timestamptz
);
CREATE INDEX data_requests_user_idx ON data_requests (user_id);
CREATE INDEX data_requests_expires_idx ON data_requests (expires_at);
