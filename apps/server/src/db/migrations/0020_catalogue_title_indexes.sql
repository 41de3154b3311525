-- Title order gets the same per-filter indexes as the newest and price orders, so a single-filter
-- list sorted by title is one index range scan (docs/decisions/022-catalogue-search-plans.md).
CREATE INDEX nfts_tier_title_idx ON nfts (tier, sort_title, id);
CREATE INDEX nfts_film_title_idx ON nfts (film_id, sort_title, id);
CREATE INDEX nfts_celebrity_title_idx ON nfts (celebrity_id, sort_title, id);
CREATE INDEX nfts_sale_type_title_idx ON nfts (sale_type, sort_title, id);
