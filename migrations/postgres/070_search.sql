-- The search words of each collection's text fields (q=, model/search.ts), as a tsvector of
-- the words as they are, with a GIN index, kept in step by every write in its own statement. The
-- words are made by the service, not by SQL: the records already there (search IS NULL) are
-- indexed at start-up (store/postgres/collections.ts), in batches, before the service answers.
ALTER TABLE zoos ADD COLUMN search tsvector;
CREATE INDEX zoos_search ON zoos USING gin (search);
ALTER TABLE animals ADD COLUMN search tsvector;
CREATE INDEX animals_search ON animals USING gin (search);
ALTER TABLE employees ADD COLUMN search tsvector;
CREATE INDEX employees_search ON employees USING gin (search);
