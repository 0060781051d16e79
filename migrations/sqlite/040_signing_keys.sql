-- The keys that sign access tokens: the newest signs, every one verifies until it is retired.
-- Before this table the one key was the file DATA_DIR/signing-key.jwk.json, which the first start
-- after this migration copies here (auth/keys.ts).
CREATE TABLE signing_keys (
  kid TEXT PRIMARY KEY,
  jwk TEXT NOT NULL,
  created_at TEXT NOT NULL
) STRICT;
