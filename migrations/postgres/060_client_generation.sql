-- A client's generation changes when its secret or its scope does, as
-- migrations/sqlite/060_client_generation.sql has it.
ALTER TABLE oauth_clients ADD COLUMN generation text COLLATE "C" NOT NULL DEFAULT '';
