-- Media kept in the database (STORAGE=postgres, the default with DATABASE_URL; decision 160), so
-- every server process sees every upload with nothing new to run. An object never changes under its
-- key (uploads are named by the hash of their content); sha256 is served as its ETag.
CREATE TABLE media_objects (
  key text PRIMARY KEY,
  sha256 text NOT NULL CHECK (sha256 ~ '^[0-9a-f]{64}$'),
  content_type text NOT NULL,
  size integer NOT NULL CHECK (size >= 0),
  data bytea NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX media_objects_sha256 ON media_objects (sha256);
