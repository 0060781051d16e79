-- The built-in authorization server: clients, users, refresh tokens and revoked access
-- tokens. Secrets and passwords are scrypt hashes; refresh tokens are stored as SHA-256 digests.

CREATE TABLE oauth_clients (
  client_id TEXT PRIMARY KEY,
  -- NULL for a public client (the sign-in flow's), which has no secret and may only refresh.
  secret_hash TEXT,
  name TEXT NOT NULL,
  scope TEXT NOT NULL,
  created_at TEXT NOT NULL
) STRICT;

CREATE TABLE users (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  username TEXT NOT NULL COLLATE NOCASE UNIQUE,
  -- NULL for a user who signs in only through an external provider.
  password_hash TEXT,
  scope TEXT NOT NULL,
  external_issuer TEXT,
  external_subject TEXT,
  created_at TEXT NOT NULL,
  UNIQUE (external_issuer, external_subject)
) STRICT;

CREATE TABLE refresh_tokens (
  token_hash TEXT PRIMARY KEY,
  -- Every token rotated from the same grant shares a family; reuse of a rotated one revokes it.
  family_id TEXT NOT NULL,
  client_id TEXT NOT NULL REFERENCES oauth_clients (client_id) ON DELETE CASCADE,
  user_id INTEGER REFERENCES users (id) ON DELETE CASCADE,
  scope TEXT NOT NULL,
  expires_at TEXT NOT NULL,
  rotated_at TEXT,
  revoked_at TEXT,
  created_at TEXT NOT NULL
) STRICT;
CREATE INDEX refresh_tokens_family ON refresh_tokens (family_id);

-- Access tokens revoked before they expire (RFC 7009); kept until then.
CREATE TABLE revoked_access_tokens (
  jti TEXT PRIMARY KEY,
  expires_at TEXT NOT NULL
) STRICT;
