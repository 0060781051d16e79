-- A transaction raises its collection's change counter once, at its first statement that writes
-- the table, instead of at every statement (migrations/postgres/050_collection_changes.sql).
-- Once is enough: the counter and every row the transaction writes become visible together, at
-- its commit. Each statement's upsert cost more than the insert it counted (41 of 59 µs), and a
-- transaction of many statements (a batch, a change of many records) updated the same counter
-- row again each time, every update finding the row's newest version at the end of a longer
-- chain. The setting that remembers it is the session's, holding the transaction's id: a later
-- transaction of the same session has another id and counts again.
CREATE OR REPLACE FUNCTION count_collection_change() RETURNS trigger LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
DECLARE
  counted constant text := 'zoo.counted_' || TG_TABLE_NAME;
  transaction_id constant text := pg_current_xact_id()::text;
BEGIN
  IF current_setting(counted, true) = transaction_id THEN
    RETURN NULL;
  END IF;
  -- Session-wide (false): a local setting made inside a function with a SET clause ends with the call.
  PERFORM set_config(counted, transaction_id, false);
  INSERT INTO collection_changes (collection, slot, changes)
    VALUES (TG_TABLE_NAME, (pg_current_xact_id()::text::bigint % 16)::integer, 1)
    ON CONFLICT (collection, slot) DO UPDATE SET changes = collection_changes.changes + 1;
  RETURN NULL;
END
$$;
