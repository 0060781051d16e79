-- Webhooks: the deliveries' indexes that find the ones waiting to be sent (the due, and a record's
-- earlier one that must go first) hold the waiting alone. Nearly every delivery is kept already
-- sent, and was written into both for nothing, in the commit of the writes it follows. The due
-- index keeps status as its first column: on next_attempt_at alone, SQLite's planner took the
-- subscription's unique index for the due deliveries instead, walking every delivery it ever kept.
DROP INDEX webhook_deliveries_due;
DROP INDEX webhook_deliveries_record;
CREATE INDEX webhook_deliveries_due ON webhook_deliveries (status, next_attempt_at) WHERE status = 'pending';
CREATE INDEX webhook_deliveries_record ON webhook_deliveries (webhook_id, collection, record_id, position) WHERE status = 'pending';
