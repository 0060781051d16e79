-- How many times each collection has changed, raised by every statement that writes its table,
-- in that statement's transaction, whichever instance (or operator) runs it. A total counted in
-- the same snapshot as this sum stays exact for as long as the sum stays the same: the counters
-- only grow, so an equal sum means no write has committed since (store/postgres/totals.ts).
--
-- Sixteen counters per collection, a transaction raising the one its id picks, so that
-- concurrent writes seldom wait on one row; one transaction keeps to one counter, so two of them
-- never wait on each other in opposite orders.
CREATE TABLE collection_changes (
  collection text COLLATE "C" NOT NULL,
  slot integer NOT NULL,
  changes bigint NOT NULL,
  PRIMARY KEY (collection, slot)
);

-- SET search_path FROM CURRENT: the function finds its table in this schema, whatever the
-- search_path of the session whose write fires it.
CREATE FUNCTION count_collection_change() RETURNS trigger LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
BEGIN
  INSERT INTO collection_changes (collection, slot, changes)
    VALUES (TG_TABLE_NAME, (pg_current_xact_id()::text::bigint % 16)::integer, 1)
    ON CONFLICT (collection, slot) DO UPDATE SET changes = collection_changes.changes + 1;
  RETURN NULL;
END
$$;

CREATE TRIGGER zoos_changes AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON zoos
  FOR EACH STATEMENT EXECUTE FUNCTION count_collection_change();
CREATE TRIGGER animals_changes AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON animals
  FOR EACH STATEMENT EXECUTE FUNCTION count_collection_change();
CREATE TRIGGER employees_changes AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON employees
  FOR EACH STATEMENT EXECUTE FUNCTION count_collection_change();
