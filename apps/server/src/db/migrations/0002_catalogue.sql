-- Catalogue: studios, films, stars, collections, NFTs, team, contact messages, newsletter.
-- Identifiers and sort keys use COLLATE "C" so ordering (and keyset pagination) is byte-wise and
-- identical on PGlite and on a PostgreSQL server, whatever the server's default locale.

CREATE TYPE nft_tier AS ENUM ('common', 'rare', 'ultimate', 'legendary');
CREATE TYPE nft_sale_type AS ENUM ('fixed', 'auction');

-- Production houses (studios). Official partners shown on the about page carry is_partner.
CREATE TABLE production_houses (
  id serial PRIMARY KEY,
  slug text COLLATE "C" NOT NULL UNIQUE,
  name text NOT NULL,
  description text NOT NULL DEFAULT '',
  logo_url text NOT NULL,
  is_partner boolean NOT NULL DEFAULT true,
  display_order integer NOT NULL DEFAULT 0
);

CREATE TABLE films (
  id serial PRIMARY KEY,
  slug text COLLATE "C" NOT NULL UNIQUE CHECK (slug ~ '^[a-z0-9-]+$'),
  name text NOT NULL,
  tagline text NOT NULL DEFAULT '',
  description text NOT NULL DEFAULT '',
  release_year integer CHECK (release_year BETWEEN 1900 AND 2100),
  production_house_id integer REFERENCES production_houses (id),
  poster_url text NOT NULL,
  banner_url text NOT NULL,
  thumbnail_url text NOT NULL,
  -- Shown prominently on the film page (e.g. the sapling every holder of Vivek's collection receives).
  note text,
  display_order integer NOT NULL DEFAULT 0
);

CREATE TABLE celebrities (
  id serial PRIMARY KEY,
  slug text COLLATE "C" NOT NULL UNIQUE CHECK (slug ~ '^[a-z0-9-]+$'),
  name text NOT NULL,
  bio text NOT NULL DEFAULT ''
);

-- Who appears in which film (a star appears in many films; a film has many stars).
CREATE TABLE film_celebrities (
  film_id integer NOT NULL REFERENCES films (id) ON DELETE CASCADE,
  celebrity_id integer NOT NULL REFERENCES celebrities (id) ON DELETE CASCADE,
  role text NOT NULL DEFAULT '',
  billing_order integer NOT NULL DEFAULT 0,
  PRIMARY KEY (film_id, celebrity_id)
);
CREATE INDEX film_celebrities_celebrity_idx ON film_celebrities (celebrity_id);

-- Tiles of the collections page: a film's collection, or a "Coming soon" tile without a film.
CREATE TABLE collections (
  id serial PRIMARY KEY,
  slug text COLLATE "C" NOT NULL UNIQUE,
  name text NOT NULL,
  description text NOT NULL DEFAULT '',
  film_id integer REFERENCES films (id),
  banner_url text NOT NULL,
  thumbnail_url text NOT NULL,
  href text,
  is_featured boolean NOT NULL DEFAULT false,
  is_hot boolean NOT NULL DEFAULT false,
  coming_soon boolean NOT NULL DEFAULT false,
  -- Order in the featured slider and in the hot grid (the two differ in the spec).
  display_order integer NOT NULL DEFAULT 0,
  hot_order integer NOT NULL DEFAULT 0,
  CHECK (coming_soon OR film_id IS NOT NULL)
);

CREATE TABLE nfts (
  -- Short URL-safe public id, e.g. "kB3x9Qm2Lp".
  id text COLLATE "C" PRIMARY KEY CHECK (id ~ '^[A-Za-z0-9_-]{6,32}$'),
  title text NOT NULL CHECK (length(title) BETWEEN 1 AND 200),
  -- Sort key of sort=title: case-insensitive, byte-wise ordered.
  sort_title text COLLATE "C" GENERATED ALWAYS AS (lower(title)) STORED,
  description text NOT NULL DEFAULT '',
  about text NOT NULL DEFAULT '',
  tier nft_tier NOT NULL,
  category text NOT NULL,
  film_id integer NOT NULL REFERENCES films (id),
  celebrity_id integer NOT NULL REFERENCES celebrities (id),
  production_house_id integer NOT NULL REFERENCES production_houses (id),
  collection_id integer REFERENCES collections (id),
  image_url text NOT NULL,
  video_url text,
  thumbnail_url text NOT NULL,
  edition_size integer NOT NULL CHECK (edition_size > 0),
  editions_available integer NOT NULL CHECK (editions_available BETWEEN 0 AND edition_size),
  exclusive_rewards text NOT NULL DEFAULT '',
  sale_type nft_sale_type NOT NULL,
  -- USD cents. For auctions this is the reserve price.
  price_usd_cents bigint NOT NULL CHECK (price_usd_cents >= 0),
  auction_duration_days integer CHECK (auction_duration_days BETWEEN 1 AND 60),
  -- When bidding ends; NULL while no auction clock runs yet.
  auction_ends_at timestamptz,
  royalty_bps integer NOT NULL DEFAULT 1000 CHECK (royalty_bps BETWEEN 0 AND 10000),
  blockchain text NOT NULL DEFAULT 'Polygon',
  -- title + film + celebrity + description, lower-cased; maintained by triggers (below).
  search_text text NOT NULL DEFAULT '',
  created_at timestamptz NOT NULL DEFAULT now(),
  CHECK (sale_type = 'auction' OR (auction_duration_days IS NULL AND auction_ends_at IS NULL)),
  CHECK (sale_type = 'fixed' OR auction_duration_days IS NOT NULL)
);

-- Keyset pagination: each sort order (created_at desc | price | sort_title, then id) has an index
-- unfiltered and one per equality filter, so a page is one index range scan. DESC orders scan
-- the same indexes backwards.
CREATE INDEX nfts_newest_idx ON nfts (created_at, id);
CREATE INDEX nfts_price_idx ON nfts (price_usd_cents, id);
CREATE INDEX nfts_title_idx ON nfts (sort_title, id);
CREATE INDEX nfts_tier_newest_idx ON nfts (tier, created_at, id);
CREATE INDEX nfts_tier_price_idx ON nfts (tier, price_usd_cents, id);
CREATE INDEX nfts_film_newest_idx ON nfts (film_id, created_at, id);
CREATE INDEX nfts_film_price_idx ON nfts (film_id, price_usd_cents, id);
CREATE INDEX nfts_celebrity_newest_idx ON nfts (celebrity_id, created_at, id);
CREATE INDEX nfts_celebrity_price_idx ON nfts (celebrity_id, price_usd_cents, id);
CREATE INDEX nfts_sale_type_newest_idx ON nfts (sale_type, created_at, id);
CREATE INDEX nfts_sale_type_price_idx ON nfts (sale_type, price_usd_cents, id);
CREATE INDEX nfts_collection_idx ON nfts (collection_id);
CREATE INDEX nfts_production_house_idx ON nfts (production_house_id);
-- Substring search ("kaba" finds Kabali): trigram index serving ILIKE '%q%'.
CREATE INDEX nfts_search_trgm_idx ON nfts USING gin (search_text gin_trgm_ops);

CREATE FUNCTION nft_search_text(p_title text, p_description text, p_film_id integer, p_celebrity_id integer)
RETURNS text LANGUAGE sql STABLE AS $$
  SELECT lower(concat_ws(' ', p_title,
    (SELECT f.name FROM films f WHERE f.id = p_film_id),
    (SELECT c.name FROM celebrities c WHERE c.id = p_celebrity_id),
    p_description))
$$;

CREATE FUNCTION nfts_set_search_text() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.search_text := nft_search_text(NEW.title, NEW.description, NEW.film_id, NEW.celebrity_id);
  RETURN NEW;
END
$$;
CREATE TRIGGER nfts_search_text_trg BEFORE INSERT OR UPDATE OF title, description, film_id, celebrity_id
  ON nfts FOR EACH ROW EXECUTE FUNCTION nfts_set_search_text();

-- A renamed film or star re-indexes its NFTs.
CREATE FUNCTION films_refresh_nft_search() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE nfts SET search_text = nft_search_text(title, description, film_id, celebrity_id) WHERE film_id = NEW.id;
  RETURN NULL;
END
$$;
CREATE TRIGGER films_name_trg AFTER UPDATE OF name ON films
  FOR EACH ROW WHEN (OLD.name IS DISTINCT FROM NEW.name) EXECUTE FUNCTION films_refresh_nft_search();

CREATE FUNCTION celebrities_refresh_nft_search() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE nfts SET search_text = nft_search_text(title, description, film_id, celebrity_id) WHERE celebrity_id = NEW.id;
  RETURN NULL;
END
$$;
CREATE TRIGGER celebrities_name_trg AFTER UPDATE OF name ON celebrities
  FOR EACH ROW WHEN (OLD.name IS DISTINCT FROM NEW.name) EXECUTE FUNCTION celebrities_refresh_nft_search();

CREATE TABLE team_members (
  id serial PRIMARY KEY,
  slug text COLLATE "C" NOT NULL UNIQUE,
  name text NOT NULL,
  role text NOT NULL,
  avatar_url text NOT NULL,
  display_order integer NOT NULL DEFAULT 0
);

CREATE TABLE contact_messages (
  id bigserial PRIMARY KEY,
  name text NOT NULL,
  email text NOT NULL,
  message text NOT NULL,
  ip text,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX contact_messages_created_idx ON contact_messages (created_at);

CREATE TABLE newsletter_subscribers (
  id bigserial PRIMARY KEY,
  email text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX newsletter_subscribers_email_idx ON newsletter_subscribers (lower(email));
