-- The order in which movements hit an account. Each movement locks its account row before it
-- writes its ledger entry, so for one account this sequence follows the order of the balances
-- (created_at is the start of each transaction and may not): a page of entries, newest first,
-- chains balanceAfter to balanceAfter. Existing entries are numbered in their stored order.
ALTER TABLE wallet.ledger ADD COLUMN seq bigserial NOT NULL;
CREATE INDEX ledger_account_sequence ON wallet.ledger (organization_id, mode, seq DESC) WHERE amount_centimes > 0;
