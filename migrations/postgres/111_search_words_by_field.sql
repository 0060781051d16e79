-- Each record's search words kept by field as well, by the field's name (store/postgres/dialect.ts):
-- an update that sets some text fields makes the tsvector of the words it sets and those the
-- record keeps of the others, without reading the record first. The records already there have
-- none (search_words IS NULL): they are indexed again at start-up, in batches, before the service
-- answers, and keep their tsvector until then.
ALTER TABLE zoos ADD COLUMN search_words jsonb;
ALTER TABLE animals ADD COLUMN search_words jsonb;
ALTER TABLE employees ADD COLUMN search_words jsonb;
