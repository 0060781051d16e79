-- Idempotency-Key: the first answer to a keyed POST or PATCH, replayed to a retry with
-- the same key and request for 24 hours.
CREATE TABLE idempotency_keys (
  -- Who sent it: the token's issuer and client id, so keys of different clients never meet.
  owner TEXT NOT NULL,
  key TEXT NOT NULL,
  -- SHA-256 of the method, path and canonical JSON body: the same key with another request is refused.
  fingerprint TEXT NOT NULL,
  state TEXT NOT NULL CHECK (state IN ('in_flight', 'done')),
  status INTEGER,
  headers TEXT,
  body TEXT,
  created_at TEXT NOT NULL,
  PRIMARY KEY (owner, key)
) STRICT, WITHOUT ROWID;
CREATE INDEX idempotency_keys_created_at ON idempotency_keys (created_at);
