-- The change feed (GET /v1/<collection>/changes): every committed change of a record, written in
-- the transaction of the write that made it, so that none is lost or recorded without its write.
-- A position is the row's id: SQLite runs one write transaction at a time, so positions grow in
-- commit order. AUTOINCREMENT: a position is never handed out twice, even after pruning.
CREATE TABLE changes (
  position INTEGER PRIMARY KEY AUTOINCREMENT,
  collection TEXT NOT NULL,
  record_id INTEGER NOT NULL,
  event TEXT NOT NULL CHECK (event IN ('created', 'updated', 'deleted')),
  -- The record as the change left it, as JSON; NULL once deleted.
  record TEXT,
  at TEXT NOT NULL
) STRICT;
CREATE INDEX changes_by_collection ON changes (collection, position);
CREATE INDEX changes_at ON changes (at);

-- The last position pruned from each collection's feed (CHANGES_RETENTION): resuming before it is
-- 410, as changes after it may be gone.
CREATE TABLE changes_pruned (
  collection TEXT PRIMARY KEY,
  position INTEGER NOT NULL
) STRICT, WITHOUT ROWID;
