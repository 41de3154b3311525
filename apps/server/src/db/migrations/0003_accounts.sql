-- Accounts: users, server-side sessions, single-use email tokens, and the dev mailbox.

CREATE TABLE users (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  name text NOT NULL CHECK (char_length(name) BETWEEN 1 AND 100),
  -- Stored normalised (trimmed, lower-case); unique case-insensitively.
  email text NOT NULL CHECK (email = lower(email) AND char_length(email) <= 254),
  phone text CHECK (phone IS NULL OR phone ~ '^\+[1-9][0-9]{7,14}$'),
  -- argon2id PHC string; NULL for accounts that only sign in with Google.
  password_hash text,
  email_verified_at timestamptz,
  google_sub text,
  role text NOT NULL DEFAULT 'user' CHECK (role IN ('user', 'admin')),
  suspended_at timestamptz,
  avatar_key text,
  avatar_url text,
  cover_key text,
  cover_url text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX users_email_lower_uq ON users (lower(email));
CREATE UNIQUE INDEX users_google_sub_uq ON users (google_sub) WHERE google_sub IS NOT NULL;

-- Only the SHA-256 of the session id is stored; the id itself lives in the HttpOnly cookie.
CREATE TABLE sessions (
  id_hash text PRIMARY KEY,
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  created_at timestamptz NOT NULL DEFAULT now(),
  last_seen_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  user_agent text,
  ip text
);
CREATE INDEX sessions_user_idx ON sessions (user_id);
CREATE INDEX sessions_expires_idx ON sessions (expires_at);

-- Single-use, expiring tokens sent by email (verification, email change, password reset); stored hashed.
CREATE TABLE auth_tokens (
  token_hash text PRIMARY KEY,
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  kind text NOT NULL CHECK (kind IN ('verify_email', 'password_reset')),
  -- For verify_email: the address being verified (the new one for an email change).
  email text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  used_at timestamptz
);
CREATE INDEX auth_tokens_user_kind_idx ON auth_tokens (user_id, kind);

-- Mail kept in the database when no SMTP server is configured (shown at /dev/mailbox).
CREATE TABLE dev_mail (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  to_address text NOT NULL,
  subject text NOT NULL,
  text_body text NOT NULL,
  html_body text NOT NULL,
  links jsonb NOT NULL DEFAULT '[]'::jsonb,
  created_at timestamptz NOT NULL DEFAULT clock_timestamp()
);
CREATE INDEX dev_mail_created_idx ON dev_mail (created_at DESC);
