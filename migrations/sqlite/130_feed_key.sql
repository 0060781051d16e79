-- The key that feed positions are told to clients with (collections/feed-positions.ts): positions
-- count the changes of every collection, so a client is told them enciphered, never as numbers.
-- Made by the first start that needs it, then kept: a position told before a restart still reads.
CREATE TABLE feed_key (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  key TEXT NOT NULL
) STRICT;
