-- A create asks the token's standing in its own statement when a standing was accepted before,
-- and inserts only while the answer is still that one (store/postgres/one-statement.ts). Where
-- it is not, the statement must fail rather than insert nothing: an INSERT of no rows still fires
-- the collection's statement trigger, which would count a change that never was. This raises
-- the error that says so; the service then asks the standing alone.
CREATE FUNCTION standing_changed() RETURNS boolean LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION USING ERRCODE = 'Z0001', MESSAGE = 'the standing of the token changed since it was accepted';
END
$$;
