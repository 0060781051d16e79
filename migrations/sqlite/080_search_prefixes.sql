-- Each collection's search words again, with an index of their first 1 to 6 characters and the
-- column they are in (which makes seeking in a list faster): every word of q= is a prefix, which
-- FTS5 otherwise answers by merging the lists of every word it begins (store/sqlite/schema.ts says
-- what each costs). FTS5 takes no new option on an existing table, so the tables are made anew,
-- empty; the words are made again at start-up, in batches, before the service answers
-- (store/sqlite/collections.ts), as for the records written before 070.
DROP TABLE zoos_search;
DROP TABLE animals_search;
DROP TABLE employees_search;
CREATE VIRTUAL TABLE zoos_search USING fts5(words, content = '', contentless_delete = 1, tokenize = 'ascii', detail = 'column', prefix = '1 2 3 4 5 6');
CREATE VIRTUAL TABLE animals_search USING fts5(words, content = '', contentless_delete = 1, tokenize = 'ascii', detail = 'column', prefix = '1 2 3 4 5 6');
CREATE VIRTUAL TABLE employees_search USING fts5(words, content = '', contentless_delete = 1, tokenize = 'ascii', detail = 'column', prefix = '1 2 3 4 5 6');
