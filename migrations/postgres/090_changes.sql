-- The change feed, as migrations/sqlite/090_changes.sql has it, where transactions of several
-- instances commit side by side. A position is the writing transaction's id (xid8, which never
-- wraps) times a million, plus the change's rank in that transaction: a sequence would hand out
-- numbers in the order transactions write, not the order they commit, and a reader would skip a
-- change that commits after a later number was read. The feed reads only the changes of
-- transactions older than every transaction still running (the snapshot's xmin): those are all
-- committed or undone, so no change can appear before a position already read.
CREATE TABLE changes (
  position bigint PRIMARY KEY,
  collection text COLLATE "C" NOT NULL,
  record_id bigint NOT NULL,
  event text NOT NULL CHECK (event IN ('created', 'updated', 'deleted')),
  record text,
  at text COLLATE "C" NOT NULL
);
CREATE INDEX changes_by_collection ON changes (collection, position);
CREATE INDEX changes_at ON changes (at);

CREATE TABLE changes_pruned (
  collection text COLLATE "C" PRIMARY KEY,
  position bigint NOT NULL
);
