import type { Denominations } from "../../shared/denominations";
import { h, ltr, notice } from "../../shared/dom";
import type { RunStop } from "../api";
import { amount, t } from "../i18n";
import { submit } from "../outbox";
import { go } from "../router";
import { scanField } from "../scan-field";
import { currentDay, currentRecord, markDone, refreshCash, updateRecord } from "../state";
import { cashForm, differenceLine, errorNotice, numberList, outcomeNotice, screen, slot } from "./common";

/** The relay point of the run a parcel is for (its RELAY stop's deliver list), if any. */
function relayFor(trackingNumber: string): string | null {
  const stop = currentDay()?.stops.find(s => s.kind === "RELAY" && s.deliver.includes(trackingNumber));
  return stop?.relayCode ?? null;
}

/**
 * At the hub: the parcels aboard handed in (the hub scans them in), the parcels for the run's relay
 * points loaded one scan each, and the cash handed in with its count by denomination
 * (POST /cash-deposits). The cash aboard goes to zero only when the hub confirms (GET /cash).
 */
export function hubScreen(stop: RunStop): HTMLElement {
  const loadSaid = slot();
  const cashSaid = slot();
  const aboard = currentRecord()?.aboard ?? [];

  const load = async (number: string) => {
    const trackingNumber = number.replace(/[\s-]/g, "").toUpperCase();
    const code = relayFor(trackingNumber);
    if (!code) {
      loadSaid.replaceChildren(notice("error", ltr(trackingNumber), " — ", t("notOnRun")));
      return;
    }
    const outcome = await submit("load", `/relays/${code}/load`, { trackingNumber }, trackingNumber);
    if (outcome.outcome !== "refused")
      await updateRecord(r => {
        if (!r.aboard.includes(trackingNumber)) r.aboard.push(trackingNumber);
      });
    loadSaid.replaceChildren(outcomeNotice(outcome, t("loaded", { code }), trackingNumber));
  };

  const depositForm = () => cashForm("hub-cash", currentDay()?.aboardDzd ?? null, "cashAboard", "deposit", send);
  const send = async (denominations: Denominations, total: number) => {
    const outcome = await submit("deposit", "/cash-deposits", { denominations }, amount(total));
    if (outcome.outcome !== "refused") await updateRecord(r => (r.depositedDzd = total));
    cashSaid.replaceChildren(outcomeNotice(outcome, t("hubMustConfirm", { n: amount(total) })));
    // The hub's station confirms this deposit by its reference.
    if (outcome.outcome === "done") {
      const deposit = outcome.answer as { id: string; expectedDzd: number };
      cashSaid.append(
        h("p", { id: "deposit-ref", "data-deposit-id": deposit.id }, t("depositRef"), " ", ltr(deposit.id.slice(0, 8).toUpperCase())),
        differenceLine(total, deposit.expectedDzd)
      );
    }
  };
  let cash = depositForm();

  const refreshed = slot();
  const refresh = h(
    "button",
    {
      type: "button",
      class: "secondary wide",
      id: "refresh-cash",
      onclick: async () => {
        try {
          const left = await refreshCash();
          // The count is made against the cash aboard as the server says it now.
          const fresh = depositForm();
          cash.replaceWith(fresh);
          cash = fresh;
          refreshed.replaceChildren(
            left === 0 ? notice("ok", t("cashZero")) : notice("info", t("cashAboard"), " ", t("dzd", { n: amount(left) }))
          );
        } catch (err) {
          refreshed.replaceChildren(errorNotice(err));
        }
      }
    },
    t("refreshCash")
  );

  const finish = h(
    "button",
    {
      type: "button",
      class: "primary wide",
      id: "finish-stop",
      onclick: async () => {
        // What the hub took in is no longer aboard; what was loaded here for the relay points is.
        await updateRecord(r => (r.aboard = r.aboard.filter(n => relayFor(n) !== null && !aboard.includes(n))));
        await markDone(stop);
        go({ screen: "run" });
      }
    },
    t("finishStop")
  );

  return screen(
    t("kind_HUB"),
    stop.hubCode ?? "",
    numberList("hand-in-list", "handIn", aboard),
    h("p", { class: "muted" }, t("handInHint")),
    h("h2", null, t("loadTitle")),
    scanField({ id: "load-scan", label: t("scanParcel"), onValue: value => void load(value) }),
    loadSaid,
    h("h2", null, t("depositTitle")),
    cash,
    cashSaid,
    refresh,
    refreshed,
    finish
  );
}
