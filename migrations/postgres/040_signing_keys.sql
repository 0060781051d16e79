-- The keys that sign access tokens, shared by every instance: the newest signs, every one
-- verifies until it is retired.
CREATE TABLE signing_keys (
  kid text COLLATE "C" PRIMARY KEY,
  jwk text NOT NULL,
  created_at text COLLATE "C" NOT NULL
);
