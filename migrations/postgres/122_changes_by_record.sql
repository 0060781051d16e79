-- The changes of one record in order: what tells whether a record a token's access rules no longer
-- let it see was one it saw before (the last change before, collections/changes.ts).
CREATE INDEX changes_by_record ON changes (collection, record_id, position);
