-- Unique exact amounts (issue 23, point 2): a transfer from a wallet that cannot carry the payment's
-- reference (a phone wallet scanning a QR code, a smart-contract wallet) is matched by its exact amount to the
-- merchant's address. So no two payments that may still be paid to one address, in one token on one network,
-- are quoted the same exact amount. A slot is held until 24 hours after its payment's deadline: while the
-- payment is open, and for a day after it ends, a late transfer of that amount still names one payment.
--
-- The key is the uniqueness: concurrent quotes cannot take one amount twice. A slot whose hold has run out
-- is taken over by the next quote that needs it (evm/amount-slots.ts).
CREATE TABLE quote_amount_slots (
  network     text NOT NULL,
  token       text NOT NULL,
  recipient   text NOT NULL CHECK (recipient = lower(recipient)),
  token_minor numeric(78, 0) NOT NULL CHECK (token_minor > 0),
  payment_id  text NOT NULL REFERENCES payments (id),
  held_until  timestamptz NOT NULL,
  PRIMARY KEY (network, token, recipient, token_minor)
);

-- Whether a quote's amount is unique among its address's open and recently ended payments: only such an
-- option may be paid without the reference (quotes made before this migration were not).
ALTER TABLE payment_quotes ADD COLUMN unique_amount boolean NOT NULL DEFAULT false;
