-- Issue 27: how a hand-over's COD was paid. Cash (the default, and the only way offline), or a card
-- terminal or a QR payment with its reference (Algeria's 2026 rules ask for one electronic means).
-- The till shows each tender's total; a closing counts cash only (what is in the drawer), though it
-- takes every item, so that an electronic payment is in exactly one closing too.
ALTER TABLE parcels.relay_cash_items
  ADD COLUMN tender text NOT NULL DEFAULT 'cash' CHECK (tender IN ('cash', 'card', 'qr')),
  ADD COLUMN tender_reference text;
