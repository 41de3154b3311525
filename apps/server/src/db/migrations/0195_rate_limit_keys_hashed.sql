-- Rate-limit keys no longer hold a subject in clear (issue 37 point 10, decision 188): the server
-- now writes `<rule>:<HMAC-SHA-256 of the subject, base64url>[:<window>]`. The counters written
-- before, keyed by emails, user ids and addresses in clear, go: at worst a client gets one fresh
-- window at the upgrade. (Any old process still running writes clear keys until it stops; the
-- hourly prune removes them a day later.)
DELETE FROM rate_limit_buckets WHERE key !~ '^[a-z0-9:-]+:[A-Za-z0-9_-]{43}(:[0-9]+)?$';
