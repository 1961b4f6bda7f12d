-- The EVM rail's transfers and the confirmations it follows (issue 14, ADR 23).

-- Every transfer a buyer submitted that checked out against its payment: the one that pays it, or a late one
-- (submitted after the payment ended) kept for the merchant to refund. The key binds a hash to one payment
-- for good, whichever table a second claim would reach first; hashes are stored in lower case.
CREATE TABLE evm_transfers (
  network      text NOT NULL,
  tx_hash      text NOT NULL CHECK (tx_hash = lower(tx_hash)),
  payment_id   text NOT NULL REFERENCES payments (id),
  merchant_id  text NOT NULL REFERENCES merchants (id),
  late         boolean NOT NULL,
  sender       text NOT NULL,
  recipient    text NOT NULL,
  token        text NOT NULL,
  amount       numeric(78, 0) NOT NULL CHECK (amount > 0),
  block_number bigint,
  recorded_at  timestamptz NOT NULL,
  PRIMARY KEY (network, tx_hash)
);

-- A merchant's late transfers to refund, newest first (`till transfers late`).
CREATE INDEX evm_transfers_late ON evm_transfers (merchant_id, recorded_at DESC) WHERE late;

-- Processing payments whose transaction is followed until it has the network's confirmations. Each row is
-- leased by pushing next_check_at ahead, so instances share the list (SKIP LOCKED) and a crashed
-- instance's lease runs out for another to take over; a restart simply finds the rows again.
CREATE TABLE evm_watches (
  payment_id    text PRIMARY KEY REFERENCES payments (id),
  network       text NOT NULL,
  tx_hash       text NOT NULL,
  -- The sender's nonce: a wallet that speeds up or cancels the transaction sends another with the same one.
  nonce         bigint NOT NULL,
  -- The chain's height at submission: a replacement is looked for from there.
  from_block    bigint NOT NULL,
  -- The block the transaction was last seen in; null while it waits in a mempool.
  block_number  bigint,
  -- Since when the transaction has not been seen in a block (waiting in a mempool, dropped, or
  -- reorganised out); null while it is mined.
  unmined_since timestamptz,
  next_check_at timestamptz NOT NULL,
  created_at    timestamptz NOT NULL
);

CREATE INDEX evm_watches_due ON evm_watches (next_check_at);

-- The quote fixes where the transfer goes as well as how much: a merchant who changes a receiving address
-- later does not turn a buyer's correct transfer, signed to the address the page showed, into a wrong one.
-- No release wrote quotes before this one, so the column can be required at once.
ALTER TABLE payment_quotes ADD COLUMN recipient text NOT NULL;
