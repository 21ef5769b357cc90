import { h, ltr, notice } from "../../shared/dom";
import type { RunStop } from "../api";
import { amount, t } from "../i18n";
import { submit } from "../outbox";
import { go } from "../router";
import { scanField } from "../scan-field";
import { currentRecord, markDone, relayRecord, updateRecord } from "../state";
import { cashForm, differenceLine, numberList, outcomeNotice, screen, slot } from "./common";

/**
 * At a relay point: the counter's courier QR (POST /relays/{code}/arrive), the parcels handed
 * over (the agent scans each in), the returns waiting taken one scan each, and the till's cash
 * counted by denomination (POST /relays/{code}/cash-collections): the agent confirms on the
 * counter; a difference is shown when the counts differ.
 */
export function relayScreen(stop: RunStop): HTMLElement {
  const code = stop.relayCode ?? "";
  const arrival = slot();
  const returns = slot();
  const returnSaid = slot();
  const cashSaid = slot();
  const deliver = slot();
  const taken = () => new Set(currentRecord()?.relays[code]?.returns ?? []);

  const drawReturns = () => returns.replaceChildren(numberList("returns-list", "returnsTitle", stop.collectReturns, n => taken().has(n)));
  const drawArrival = () => {
    if (currentRecord()?.relays[code]?.arrived) arrival.replaceChildren(notice("ok", t("arrived")));
  };

  const arrive = async (pass: string) => {
    const outcome = await submit("arrive", `/relays/${code}/arrive`, { pass }, code);
    if (outcome.outcome === "done") {
      // What the server says now, fresher than the morning's run: the parcels to hand over, the returns waiting.
      const visit = outcome.answer as { deliver: string[]; collectReturns: string[] };
      stop.deliver = visit.deliver;
      stop.collectReturns = visit.collectReturns;
      deliver.replaceChildren(numberList("deliver-list", "toDeliver", stop.deliver));
      drawReturns();
    }
    if (outcome.outcome !== "refused") await updateRecord(r => (relayRecord(r, code).arrived = true));
    arrival.replaceChildren(outcomeNotice(outcome, t("arrived")));
  };

  const takeReturn = async (number: string) => {
    const trackingNumber = number.replace(/[\s-]/g, "").toUpperCase();
    const outcome = await submit("return", `/relays/${code}/returns`, { trackingNumber }, trackingNumber);
    if (outcome.outcome !== "refused")
      await updateRecord(r => {
        const relay = relayRecord(r, code);
        if (!relay.returns.includes(trackingNumber)) relay.returns.push(trackingNumber);
        if (!r.aboard.includes(trackingNumber)) r.aboard.push(trackingNumber);
      });
    returnSaid.replaceChildren(outcomeNotice(outcome, t("returnTaken"), trackingNumber));
    drawReturns();
  };

  const expected = typeof stop.cashToCollect === "number" ? stop.cashToCollect : null;
  const cash = cashForm("relay-cash", expected, "cashExpected", "takeCash", async (denominations, total) => {
    const outcome = await submit("cash", `/relays/${code}/cash-collections`, { denominations }, `${code} · ${amount(total)}`);
    if (outcome.outcome !== "refused") await updateRecord(r => (relayRecord(r, code).countedDzd = total));
    cashSaid.replaceChildren(outcomeNotice(outcome, t("agentMustConfirm", { n: amount(total) })));
    if (outcome.outcome === "done") cashSaid.append(differenceLine(total, (outcome.answer as { expectedDzd: number }).expectedDzd));
  });

  const finish = h(
    "button",
    {
      type: "button",
      class: "primary wide",
      id: "finish-stop",
      onclick: async () => {
        await updateRecord(r => (r.aboard = r.aboard.filter(n => !stop.deliver.includes(n))));
        await markDone(stop);
        go({ screen: "run" });
      }
    },
    t("finishStop")
  );

  drawArrival();
  drawReturns();
  deliver.replaceChildren(numberList("deliver-list", "toDeliver", stop.deliver));
  return screen(
    t("kind_RELAY"),
    code,
    scanField({ id: "pass-scan", label: t("scanPass"), maxLength: 400, onValue: value => void arrive(value) }),
    arrival,
    deliver,
    h("p", { class: "muted" }, t("deliverHint")),
    returns,
    scanField({ id: "return-scan", label: t("scanReturn"), onValue: value => void takeReturn(value), focus: false }),
    returnSaid,
    h("h2", null, t("cashTitle")),
    byDenomination(stop.cashByDenomination),
    cash,
    cashSaid,
    finish
  );
}

/** The till's closed cash by denomination, as the counter counted it (once the counter-cash work gives it): "2 000 × 3 · 500 × 1". */
function byDenomination(count: Record<string, number> | undefined): HTMLElement | null {
  const lines = Object.entries(count ?? {})
    .filter(([, n]) => n > 0)
    .sort(([a], [b]) => Number(b) - Number(a));
  if (lines.length === 0) return null;
  return h(
    "p",
    { class: "muted", id: "cash-by-denomination" },
    ltr(lines.map(([face, n]) => `${amount(Number(face))} × ${n}`).join(" · "))
  );
}
