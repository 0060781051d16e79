-- The claims of the token that queued a job (a JSON object): a job of an external issuer's token
-- runs with them, as no account here keeps them (jobs/replay.ts).
ALTER TABLE jobs ADD COLUMN claims TEXT NOT NULL DEFAULT '{}';
