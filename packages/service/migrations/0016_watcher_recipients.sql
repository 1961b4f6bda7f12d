-- The chain watcher's comparison of a transfer that names no payment with the payments still open at its
-- address (evm/transfer-match.ts, openAt): by address, not by scanning every recently watched quote.
CREATE INDEX payment_quotes_recipient ON payment_quotes (network, recipient, token);
