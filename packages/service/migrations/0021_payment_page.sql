-- A payment's dashboard page (issue 25, point 6) tells how its transaction was seen and how it gathered its
-- confirmations.

-- Who bound the transfer: the checkout page that posted its hash, or the chain watcher that found it.
-- Transfers bound before this release say nothing (null).
ALTER TABLE evm_transfers ADD COLUMN seen_by text CHECK (seen_by IN ('page', 'watcher'));

-- Each count of confirmations the follower saw a payment's transaction reach, up to the network's
-- requirement: the follower checks now and then, so a count it did not see in passing is not recorded.
CREATE TABLE evm_confirmations (
  payment_id    text NOT NULL REFERENCES payments (id),
  tx_hash       text NOT NULL,
  confirmations integer NOT NULL CHECK (confirmations >= 1),
  required      integer NOT NULL CHECK (required >= 1),
  block_number  bigint NOT NULL,
  at            timestamptz NOT NULL,
  PRIMARY KEY (payment_id, tx_hash, confirmations)
);
