-- The chain watcher (issue 23, ADR 23): Till finds buyers' transfers on chain itself, so a payment no longer
-- depends on the buyer's tab posting its hash.

-- Where the watcher of each network has read to, and which instance holds it. A lease, as the follower's
-- watches have, lets several instances share one watcher: the holder renews it on every pass, and another
-- instance takes over when it runs out. A restart reads on from next_block, so no block is skipped.
CREATE TABLE evm_watch_cursors (
  network     text PRIMARY KEY,
  -- The first block not yet read.
  next_block  bigint NOT NULL CHECK (next_block >= 0),
  lease_owner text,
  lease_until timestamptz,
  updated_at  timestamptz NOT NULL
);

-- How a transfer was tied to its payment: by the reference its calldata carries (posted by the page, or
-- found by the watcher), or by its unique exact amount (found by the watcher, from a wallet that cannot
-- append data). The follower checks each kind by what it was matched on.
ALTER TABLE evm_transfers ADD COLUMN matched_by text NOT NULL DEFAULT 'reference' CHECK (matched_by IN ('reference', 'amount'));

-- The payment's reference (evm/reference.ts: the first 16 bytes of sha256('till-payment:' || id)), kept with
-- each quote so that a transfer found on chain names its payment by one index lookup.
ALTER TABLE payment_quotes ADD COLUMN reference text;
UPDATE payment_quotes SET reference = '0x' || substr(encode(sha256(convert_to('till-payment:' || payment_id, 'UTF8')), 'hex'), 1, 32);
ALTER TABLE payment_quotes ALTER COLUMN reference SET NOT NULL;
CREATE INDEX payment_quotes_reference ON payment_quotes (reference);

-- Until when a quote's address is watched: while its payment may be paid, and a day after (as its amount
-- slot is held), so a transfer that comes late is recorded as unapplied against the payment it names. The
-- watcher loads the watched addresses of its network with this index, so its work grows with recent
-- payments, not with merchants.
ALTER TABLE payment_quotes ADD COLUMN watch_until timestamptz;
UPDATE payment_quotes q SET watch_until = p.expires_at + interval '24 hours' FROM payments p WHERE p.id = q.payment_id;
ALTER TABLE payment_quotes ALTER COLUMN watch_until SET NOT NULL;
CREATE INDEX payment_quotes_watched ON payment_quotes (network, watch_until);
