-- Issue 12: public handles, likes, follows and showcase curation (docs/decisions/151-likes-follows-showcase.md).

-- A user's public handle, the shareable part of /u/:handle: a slug of the name when the account is
-- created plus six characters of its id (unique), never changed by renaming (links stay valid).
ALTER TABLE users ADD COLUMN handle text;
CREATE OR REPLACE FUNCTION users_default_handle() RETURNS trigger AS $$
DECLARE
  base text;
BEGIN
  IF NEW.handle IS NULL THEN
    base := trim(both '-' from left(regexp_replace(lower(NEW.name), '[^a-z0-9]+', '-', 'g'), 20));
    IF base = '' THEN base := 'fan'; END IF;
    NEW.handle := base || '-' || substr(replace(NEW.id::text, '-', ''), 1, 6);
  END IF;
  RETURN NEW;
END;
$$ LANGUAGE plpgsql;
CREATE TRIGGER users_default_handle BEFORE INSERT ON users FOR EACH ROW EXECUTE FUNCTION users_default_handle();
UPDATE users SET handle = coalesce(nullif(trim(both '-' from left(regexp_replace(lower(name), '[^a-z0-9]+', '-', 'g'), 20)), ''), 'fan')
  || '-' || substr(replace(id::text, '-', ''), 1, 6);
ALTER TABLE users ALTER COLUMN handle SET NOT NULL;
ALTER TABLE users ADD CONSTRAINT users_handle_format CHECK (handle ~ '^[a-z0-9][a-z0-9-]{0,40}$');
CREATE UNIQUE INDEX users_handle_uq ON users (handle);

-- One like per user per catalogue NFT.
CREATE TABLE nft_likes (
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  nft_id text COLLATE "C" NOT NULL REFERENCES nfts (id) ON DELETE CASCADE,
  created_at timestamptz NOT NULL,
  PRIMARY KEY (user_id, nft_id)
);
CREATE INDEX nft_likes_nft_idx ON nft_likes (nft_id);
CREATE INDEX nft_likes_user_idx ON nft_likes (user_id, created_at DESC);

-- Who follows whom; nobody follows themselves.
CREATE TABLE follows (
  follower_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  followee_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  created_at timestamptz NOT NULL,
  PRIMARY KEY (follower_id, followee_id),
  CHECK (follower_id <> followee_id)
);
CREATE INDEX follows_followee_idx ON follows (followee_id, created_at DESC);

-- How an owner arranges their showcase: pinned tokens first, then by position; hidden ones are never
-- shown to anyone else. Tokens without a row are shown after the arranged ones, by token id.
CREATE TABLE showcase_items (
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  chain_id integer NOT NULL,
  token_id numeric(78, 0) NOT NULL,
  pinned boolean NOT NULL DEFAULT false,
  hidden boolean NOT NULL DEFAULT false,
  position integer NOT NULL,
  PRIMARY KEY (user_id, chain_id, token_id)
);

