-- A transaction raises its collection's change counter once, at its first statement that writes
-- the table, instead of at every statement (migrations/postgres/050_collection_changes.sql).
-- Once is enough: the counter and every row the transaction writes become visible together, at
-- its commit. Each statement's upsert cost more than the insert it counted (41 of 59 µs), and a
-- transaction of many statements (a batch, a change of many records) updated the same counter
-- row again each time, every update finding the row's newest version at the end of a longer
-- chain. A setting local to the transaction remembers it, holding the transaction's id, so that
-- nothing a pooled session keeps can pass for it.
CREATE OR REPLACE FUNCTION count_collection_change() RETURNS trigger LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
DECLARE
  counted constant text := 'zoo.counted_' || TG_TABLE_NAME;
  transaction_id constant text := pg_current_xact_id()::text;
BEGIN
  IF current_setting(counted, true) = transaction_id THEN
    RETURN NULL;
  END IF;
  PERFORM set_config(counted, transaction_id, true);
  INSERT INTO collection_changes (collection, slot, changes)
    VALUES (TG_TABLE_NAME, (pg_current_xact_id()::text::bigint % 16)::integer, 1)
    ON CONFLICT (collection, slot) DO UPDATE SET changes = collection_changes.changes + 1;
  RETURN NULL;
END
$$;
