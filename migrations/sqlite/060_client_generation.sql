-- A client's generation changes when its secret or its scope does: an access token names the
-- generation it was issued in, and is refused once that has passed. Clients made before this
-- migration, and their tokens (which name none), share the empty generation.
ALTER TABLE oauth_clients ADD COLUMN generation TEXT NOT NULL DEFAULT '';
