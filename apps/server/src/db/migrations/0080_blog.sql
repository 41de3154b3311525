-- Blog posts written in Markdown (decision 130). The sanitized HTML is rendered once when a post is
-- written and stored next to its source; render_version says which renderer made it, so a change of
-- the sanitizer's rules re-renders old rows when they are next read.
CREATE TABLE blog_posts (
  id bigserial PRIMARY KEY,
  slug text COLLATE "C" NOT NULL UNIQUE CHECK (slug ~ '^[a-z0-9]+(-[a-z0-9]+)*$' AND length(slug) <= 120),
  title text NOT NULL CHECK (length(title) BETWEEN 1 AND 200),
  excerpt text NOT NULL DEFAULT '' CHECK (length(excerpt) <= 500),
  cover_image_url text,
  cover_image_alt text NOT NULL DEFAULT '',
  author_name text NOT NULL CHECK (length(author_name) BETWEEN 1 AND 120),
  markdown text NOT NULL,
  html text NOT NULL,
  render_version integer NOT NULL,
  reading_minutes integer NOT NULL CHECK (reading_minutes >= 1),
  featured boolean NOT NULL DEFAULT false,
  published_at timestamptz NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
-- Newest first, keyset on (published_at, slug).
CREATE INDEX blog_posts_published_idx ON blog_posts (published_at DESC, slug DESC);
CREATE INDEX blog_posts_featured_idx ON blog_posts (published_at DESC) WHERE featured;
