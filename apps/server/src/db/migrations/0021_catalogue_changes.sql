-- Change log of the catalogue list's rows, read by every server process's in-memory search index
-- (docs/decisions/023-catalogue-search-index.md). Each change records the NFT id and the writing
-- transaction's id; a reader catches up on the changes of transactions that committed since it last
-- looked, keeping its watermark at the oldest transaction still running, so a long transaction that
-- commits late is not skipped. Rows are pruned by the readers.
CREATE TABLE catalogue_changes (
  xid xid8 NOT NULL DEFAULT pg_current_xact_id(),
  nft_id text COLLATE "C" NOT NULL
);
CREATE INDEX catalogue_changes_xid_idx ON catalogue_changes (xid);

CREATE FUNCTION catalogue_nft_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    INSERT INTO catalogue_changes (nft_id) VALUES (OLD.id);
  ELSE
    INSERT INTO catalogue_changes (nft_id) VALUES (NEW.id);
    IF TG_OP = 'UPDATE' AND OLD.id IS DISTINCT FROM NEW.id THEN
      INSERT INTO catalogue_changes (nft_id) VALUES (OLD.id);
    END IF;
  END IF;
  RETURN NULL;
END
$$;

-- Wakes the readers up (NOTIFY is sent at commit, once per transaction for identical payloads).
CREATE FUNCTION catalogue_notify() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('catalogue.changes', '{}');
  RETURN NULL;
END
$$;

CREATE TRIGGER nfts_changes_trg AFTER INSERT OR UPDATE OR DELETE ON nfts
  FOR EACH ROW EXECUTE FUNCTION catalogue_nft_changed();
CREATE TRIGGER nfts_changes_notify_trg AFTER INSERT OR UPDATE OR DELETE ON nfts
  FOR EACH STATEMENT EXECUTE FUNCTION catalogue_notify();

-- A film's or star's slug and name are shown on (and filter) its NFTs' cards. Renames also rewrite
-- the NFTs' search text (migration 0002), which logs them too; a new slug alone does not.
CREATE FUNCTION catalogue_owner_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO catalogue_changes (nft_id)
    SELECT id FROM nfts WHERE CASE TG_TABLE_NAME WHEN 'films' THEN film_id ELSE celebrity_id END = NEW.id;
  PERFORM pg_notify('catalogue.changes', '{}');
  RETURN NULL;
END
$$;
CREATE TRIGGER films_changes_trg AFTER UPDATE OF slug, name ON films
  FOR EACH ROW WHEN (OLD.slug IS DISTINCT FROM NEW.slug OR OLD.name IS DISTINCT FROM NEW.name)
  EXECUTE FUNCTION catalogue_owner_changed();
CREATE TRIGGER celebrities_changes_trg AFTER UPDATE OF slug, name ON celebrities
  FOR EACH ROW WHEN (OLD.slug IS DISTINCT FROM NEW.slug OR OLD.name IS DISTINCT FROM NEW.name)
  EXECUTE FUNCTION catalogue_owner_changed();
