-- The claims of clients and users (a JSON object), which their access tokens carry and access
-- rules read (docs/access-rules.md). A user's generation changes with its claims, as a client's
-- does with its secret, scope or claims: a token of an earlier one is refused.
ALTER TABLE oauth_clients ADD COLUMN claims TEXT NOT NULL DEFAULT '{}';
ALTER TABLE users ADD COLUMN claims TEXT NOT NULL DEFAULT '{}';
ALTER TABLE users ADD COLUMN generation TEXT NOT NULL DEFAULT '';
