-- Idempotency-Key: the first answer to a keyed POST or PATCH, replayed to a retry with the same
-- key and request for 24 hours, as migrations/sqlite/020_idempotency_keys.sql has it.
CREATE TABLE idempotency_keys (
  owner text COLLATE "C" NOT NULL,
  key text COLLATE "C" NOT NULL,
  fingerprint text NOT NULL,
  state text NOT NULL CHECK (state IN ('in_flight', 'done')),
  status integer,
  headers text,
  body text,
  created_at text COLLATE "C" NOT NULL,
  PRIMARY KEY (owner, key)
);
CREATE INDEX idempotency_keys_created_at ON idempotency_keys (created_at);
