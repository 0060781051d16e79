-- Background jobs: a write sent with `Prefer: respond-async`, kept until an in-process
-- worker has replayed it through the API, then its answer. Survives restarts.
CREATE TABLE jobs (
  -- Queue order: jobs run first in, first out.
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  -- What the client sees: random, so ids tell nothing about other clients' jobs.
  id TEXT NOT NULL UNIQUE,
  -- Who queued it, the only one who may read it: the token's issuer, client and subject.
  owner_issuer TEXT NOT NULL,
  owner_client_id TEXT NOT NULL,
  owner_subject TEXT NOT NULL,
  -- The scopes of the token that queued it, space-separated.
  scope TEXT NOT NULL,
  method TEXT NOT NULL,
  -- Path and query as received, API_PREFIX included.
  url TEXT NOT NULL,
  -- JSON object of the request headers that shape the answer (Content-Type, If-Match).
  headers TEXT NOT NULL,
  -- JSON text of the request body; NULL when it had none.
  body TEXT,
  status TEXT NOT NULL CHECK (status IN ('queued', 'running', 'succeeded', 'failed')),
  -- The answer the replay got: its status and JSON body (NULL when empty, as for 204).
  result_status INTEGER,
  result_body TEXT,
  created_at TEXT NOT NULL,
  finished_at TEXT
) STRICT;
CREATE INDEX jobs_status ON jobs (status);
CREATE INDEX jobs_finished_at ON jobs (finished_at);
