-- The search words of each collection's text fields (q=, model/search.ts), in an FTS5 table
-- beside it whose rowid is the record's id, kept in step by every write in its own transaction.
-- The words are made by the service, not by SQL: the records already there are indexed at
-- start-up (store/sqlite/collections.ts), in batches, before the service answers.
CREATE VIRTUAL TABLE zoos_search USING fts5(words, content = '', contentless_delete = 1, tokenize = 'ascii', detail = 'none');
CREATE VIRTUAL TABLE animals_search USING fts5(words, content = '', contentless_delete = 1, tokenize = 'ascii', detail = 'none');
CREATE VIRTUAL TABLE employees_search USING fts5(words, content = '', contentless_delete = 1, tokenize = 'ascii', detail = 'none');
