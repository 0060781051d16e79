-- Webhooks (docs/webhooks.md): an account's subscriptions to the changes of collections, and each
-- change to deliver to each subscription, kept until it is delivered or given up. The changes are
-- in the feed, written in their writes' transactions; a delivery is made from the feed and kept in
-- this table before it is sent (an outbox), so that none is lost to a process that stops.
CREATE TABLE webhooks (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  -- Who made it, the only one who sees it: the token's issuer, client and subject, and its scopes
  -- and claims, within which (and the account's as they are then) each delivery is made.
  owner_issuer TEXT NOT NULL,
  owner_client_id TEXT NOT NULL,
  owner_subject TEXT NOT NULL,
  scope TEXT NOT NULL,
  claims TEXT NOT NULL,
  url TEXT NOT NULL,
  -- JSON arrays of collection names and of events; the filter in the list grammar, '' for none.
  collections TEXT NOT NULL,
  events TEXT NOT NULL,
  filter TEXT NOT NULL,
  enabled INTEGER NOT NULL,
  -- whsec_ and base64; the one before a rotation signs too until previous_until.
  secret TEXT NOT NULL,
  previous_secret TEXT,
  previous_until TEXT,
  -- The feed position up to which changes have been made deliveries.
  position INTEGER NOT NULL,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
) STRICT;

CREATE TABLE webhook_deliveries (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  webhook_id INTEGER NOT NULL REFERENCES webhooks (id) ON DELETE CASCADE,
  -- The change, as the feed has it: its position is the delivery's webhook-id.
  position INTEGER NOT NULL,
  collection TEXT NOT NULL,
  record_id INTEGER NOT NULL,
  event TEXT NOT NULL,
  record TEXT,
  at TEXT NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('pending', 'succeeded', 'failed', 'skipped')),
  attempts INTEGER NOT NULL,
  last_status INTEGER,
  last_error TEXT,
  next_attempt_at TEXT,
  -- Until when an instance sending it holds it; once passed, another sends it again.
  leased_until TEXT,
  UNIQUE (webhook_id, position)
) STRICT;
CREATE INDEX webhook_deliveries_due ON webhook_deliveries (status, next_attempt_at);
CREATE INDEX webhook_deliveries_record ON webhook_deliveries (webhook_id, collection, record_id, position);
