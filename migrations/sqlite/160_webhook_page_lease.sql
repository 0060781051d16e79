-- Webhooks (docs/webhooks.md): a delivery's first attempt is sent straight from the feed, before its
-- row is kept with its outcome. Where several instances serve the database, the one sending a
-- subscription's next changes holds it until leased_until, so that no other sends them too; once
-- passed (the instance stopped), another sends them again.
ALTER TABLE webhooks ADD COLUMN leased_until TEXT;
