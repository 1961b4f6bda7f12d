-- Where each merchant receives payments on each network (issue 14): CAIP-10 accounts, one per network,
-- EIP-55 checksummed. Buyers pay these directly; Till never holds a key.
ALTER TABLE merchants ADD COLUMN settlement_addresses text[] NOT NULL DEFAULT '{}';
