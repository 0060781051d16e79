-- The key that feed positions are told to clients with, as migrations/sqlite/130_feed_key.sql has
-- it: one for every instance, so that a position told by one reads on any other.
CREATE TABLE feed_key (
  id integer PRIMARY KEY CHECK (id = 1),
  key text NOT NULL
);
