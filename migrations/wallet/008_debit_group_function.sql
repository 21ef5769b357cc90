-- A create group's debits in one statement (docs/decisions/0044): called alone, outside any
-- transaction, so the statement is its own transaction and the group costs one round trip instead
-- of five (BEGIN, the locks, the state, the writes, COMMIT), each of which woke two processes on
-- the critical path of every create. The rules are those of services/wallet/debit-group.store.ts
-- before, step for step:
-- 1. every parcel's lock (the one refunds and the sweeper take: wallet.store lockParcels), all at
--    once and in one order, so two groups never wait on each other crosswise;
-- 2. then, in statements that start after those locks are held (a VOLATILE function's every
--    statement takes a fresh snapshot in READ COMMITTED, like a statement of its own did), the
--    accounts locked FOR UPDATE in one order and read, and the parcels' prior debits and refunds;
-- 3. each item decided alone, in the order given: a parcel already debited (before, or earlier in
--    this group) answers that debit; one refunded is 'abandoned'; one its balance cannot cover is
--    'insufficient', the balance left as it was for the items after it;
-- 4. one update per account for the group's sum, and the ledger lines, in one statement.
-- Answers one row per item, in the order given (ordinality): its outcome, and for 'debited' the
-- amount taken and the balance right after it.
-- The parcels' locks, all at once and in one order, until the transaction ends: the one place their
-- key is spelled. The debit group takes them here; refunds, the sweeper and the charges take them
-- through services/wallet/wallet.store.ts lockParcels, which calls this too.
CREATE FUNCTION wallet.lock_parcels(parcel_ids text[]) RETURNS void
LANGUAGE plpgsql VOLATILE AS $$
BEGIN
  PERFORM pg_advisory_xact_lock(h)
     FROM (SELECT DISTINCT hashtext('wallet-parcel:' || id) AS h FROM unnest(parcel_ids) AS id ORDER BY h) AS locks;
END;
$$;

CREATE FUNCTION wallet.debit_group(parcel_ids text[], organization_ids uuid[], modes text[], amounts bigint[])
RETURNS TABLE (item integer, outcome text, amount_centimes bigint, balance_after_centimes bigint)
LANGUAGE plpgsql VOLATILE AS $$
#variable_conflict use_column
DECLARE
  n integer := coalesce(array_length(parcel_ids, 1), 0);
  account_orgs uuid[] := '{}';
  account_modes text[] := '{}';
  balances bigint[] := '{}';
  taken bigint[] := '{}';
  debited_ids text[] := '{}';
  debited_amounts bigint[] := '{}';
  debited_balances bigint[] := '{}';
  refunded_ids text[] := '{}';
  outcomes text[] := '{}';
  answer_amounts bigint[] := '{}';
  answer_balances bigint[] := '{}';
  line_items integer[] := '{}';
  r record;
  i integer;
  j integer;
  k integer;
BEGIN
  PERFORM wallet.lock_parcels(parcel_ids);

  FOR r IN
    SELECT a.organization_id, a.mode, a.balance_centimes FROM wallet.accounts AS a
     WHERE (a.organization_id, a.mode) IN (SELECT * FROM unnest(organization_ids, modes))
     ORDER BY a.organization_id, a.mode FOR UPDATE
  LOOP
    account_orgs := account_orgs || r.organization_id;
    account_modes := account_modes || r.mode;
    balances := balances || r.balance_centimes;
    taken := taken || 0::bigint;
  END LOOP;

  FOR r IN
    SELECT l.parcel_id::text AS parcel_id, l.kind, l.amount_centimes, l.balance_after_centimes FROM wallet.ledger AS l
     WHERE l.parcel_id = ANY (parcel_ids::uuid[]) AND l.kind IN ('debit', 'refund')
  LOOP
    IF r.kind = 'refund' THEN
      refunded_ids := refunded_ids || r.parcel_id;
    ELSE
      debited_ids := debited_ids || r.parcel_id;
      debited_amounts := debited_amounts || r.amount_centimes;
      debited_balances := debited_balances || r.balance_after_centimes;
    END IF;
  END LOOP;

  FOR i IN 1 .. n LOOP
    j := array_position(debited_ids, parcel_ids[i]::uuid::text);
    IF j IS NOT NULL THEN
      outcomes := outcomes || 'debited'::text;
      answer_amounts := answer_amounts || debited_amounts[j];
      answer_balances := answer_balances || debited_balances[j];
      CONTINUE;
    END IF;
    IF parcel_ids[i]::uuid::text = ANY (refunded_ids) THEN
      outcomes := outcomes || 'abandoned'::text;
      answer_amounts := answer_amounts || NULL::bigint;
      answer_balances := answer_balances || NULL::bigint;
      CONTINUE;
    END IF;
    k := NULL;
    FOR j IN 1 .. coalesce(array_length(account_orgs, 1), 0) LOOP
      IF account_orgs[j] = organization_ids[i] AND account_modes[j] = modes[i] THEN
        k := j;
        EXIT;
      END IF;
    END LOOP;
    IF coalesce(balances[k], 0) < amounts[i] THEN
      outcomes := outcomes || 'insufficient'::text;
      answer_amounts := answer_amounts || NULL::bigint;
      answer_balances := answer_balances || NULL::bigint;
      CONTINUE;
    END IF;
    IF k IS NOT NULL THEN
      balances[k] := balances[k] - amounts[i];
      taken[k] := taken[k] + amounts[i];
    END IF;
    debited_ids := debited_ids || parcel_ids[i]::uuid::text;
    debited_amounts := debited_amounts || amounts[i];
    debited_balances := debited_balances || coalesce(balances[k], 0);
    line_items := line_items || i;
    outcomes := outcomes || 'debited'::text;
    answer_amounts := answer_amounts || amounts[i];
    answer_balances := answer_balances || coalesce(balances[k], 0);
  END LOOP;

  IF array_length(line_items, 1) > 0 THEN
    UPDATE wallet.accounts AS a SET balance_centimes = a.balance_centimes - t.amount, updated_at = now()
      FROM unnest(account_orgs, account_modes, taken) AS t(organization_id, mode, amount)
     WHERE a.organization_id = t.organization_id AND a.mode = t.mode AND t.amount > 0;
    INSERT INTO wallet.ledger (id, organization_id, mode, kind, amount_centimes, parcel_id, balance_after_centimes)
    SELECT gen_random_uuid(), organization_ids[x], modes[x], 'debit', amounts[x], parcel_ids[x]::uuid, answer_balances[x]
      FROM unnest(line_items) WITH ORDINALITY AS lines(x, ord)
     ORDER BY ord;
  END IF;

  RETURN QUERY SELECT o.item::integer, o.outcome, answer_amounts[o.item::integer], answer_balances[o.item::integer]
                 FROM unnest(outcomes) WITH ORDINALITY AS o(outcome, item);
END;
$$;
