-- A write of one record in one statement (store/postgres/one-statement.ts) that finds no record to
-- write (none has the id, or it changed since it was read) must fail rather than write nothing: an
-- UPDATE or DELETE of no rows still fires the collection's statement trigger, which would count a
-- change that never was and give every list of the collection a new ETag. This raises the error
-- that says so; the service then writes in a transaction of its own, whose checks answer 404, 410
-- or 412, or write the record as it is now.
CREATE FUNCTION nothing_written() RETURNS boolean LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION USING ERRCODE = 'Z0002', MESSAGE = 'the statement found no record to write';
END
$$;
