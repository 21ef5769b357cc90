import { NetworkError } from "../../shared/api-errors";
import type { Denominations } from "../../shared/denominations";
import { h, ltr, notice } from "../../shared/dom";
import type { RunStop } from "../api";
import { amount, clock, t } from "../i18n";
import { items, submit } from "../outbox";
import { hubHandIn } from "../progress";
import { go } from "../router";
import { scanField } from "../scan-field";
import { currentDay, currentRecord, loadDay, markDone, onDayChange, stopNow, updateRecord } from "../state";
import { cashForm, differenceLine, errorNotice, numberList, outcomeNotice, screen, slot, tile } from "./common";

/** The relay point of the run a parcel is for (its RELAY stop's deliver list), if any. */
function relayFor(trackingNumber: string): string | null {
  const stop = currentDay()?.stops.find(s => s.kind === "RELAY" && s.deliver.includes(trackingNumber));
  return stop?.relayCode ?? null;
}

/** The parcels whose scans wait in the outbox: the server does not know them yet. */
async function waitingNumbers(): Promise<Set<string>> {
  const waiting = (await items()).filter(item => item.state === "waiting" && typeof item.body.trackingNumber === "string");
  return new Set(waiting.map(item => String(item.body.trackingNumber)));
}

/**
 * At the hub: the parcels aboard handed in (the hub scans them in), the parcels for the run's relay
 * points loaded one scan each, and the cash handed in with its count by denomination
 * (POST /cash-deposits). The cash aboard goes to zero only when the hub confirms (GET /cash).
 * The hub's scans are made on its side, so the stop reads the run again (on opening, on
 * "Actualiser", after a deposit): what the hub took leaves the list and the parcels aboard.
 * Offline, the phone's copy, said to be one.
 */
export function hubScreen(stop: RunStop): HTMLElement {
  const loadSaid = slot();
  const cashSaid = slot();
  const counts = slot();
  // What to hand in as the phone knows it: the parcels aboard on arrival, and any the server listed since.
  const arrival = [...(currentRecord()?.aboard ?? [])];
  const loaded = new Set<string>();
  // The stop's list as the server said it in a read made here; null before one and offline.
  let read: { at: Date; handIn: string[] } | null = null;
  let offline = false;
  let loadedSinceRead = 0;
  let drawing = 0;

  /** `waiting`: the outbox's waiting scans when the caller has just read them (one read per refresh). */
  const draw = async (waitingRead?: Set<string>) => {
    const mine = ++drawing;
    // Waiting scans matter only against the server's list (the copy lists them anyway).
    const waiting = read ? (waitingRead ?? (await waitingNumbers())) : new Set<string>();
    if (mine !== drawing) return;
    const { list } = hubHandIn(arrival, read?.handIn ?? null, loaded, waiting);
    const now = stopNow(stop)?.stop ?? stop;
    const day = currentDay();
    // Offline, the last list the server gave here (or the phone's own), and said to be a copy.
    const isCopy = offline || (!read && day?.fromCopy === true);
    const copyAt = clock(read?.at ?? new Date(day?.at ?? Date.now()));
    counts.replaceChildren(
      h(
        "div",
        { class: "tiles" },
        tile("hub-hand-in", t("toHandIn"), ltr(list.length)),
        tile("hub-to-load", t("toLoad"), ltr(Math.max(0, now.otherCount - loadedSinceRead))),
        tile("hub-aboard", t("parcelsAboard"), ltr(new Set(currentRecord()?.aboard ?? []).size))
      ),
      h(
        "p",
        { class: "muted", id: "hub-freshness", "data-copy": isCopy },
        isCopy ? t("hubCopy", { time: copyAt }) : read ? t("updatedAt", { time: clock(read.at) }) : "…"
      ),
      numberList("hand-in-list", "handIn", list)
    );
  };

  /** The run read again (GET /run, GET /cash); false when only the phone's copy answered. */
  const readAgain = async (): Promise<boolean> => {
    const day = await loadDay().catch(() => null);
    offline = !day || day.fromCopy;
    if (offline) {
      await draw();
      return false;
    }
    const handIn = stopNow(stop)?.stop.handIn;
    read = handIn ? { at: new Date(day!.at), handIn } : null;
    loadedSinceRead = 0;
    let waiting: Set<string> | undefined;
    if (read) {
      const listed = read.handIn;
      waiting = await waitingNumbers();
      const { taken } = hubHandIn(arrival, listed, loaded, waiting);
      // A parcel loaded while the run was read is aboard again; one the server says the courier
      // holds is aboard though this phone did not scan it (another phone, a reinstalled app).
      for (const n of listed) if (!arrival.includes(n)) arrival.push(n);
      await updateRecord(r => {
        r.aboard = r.aboard.filter(n => !taken.includes(n) || loaded.has(n));
        for (const n of listed) if (!r.aboard.includes(n)) r.aboard.push(n);
      });
    }
    await draw(waiting);
    return true;
  };

  const load = async (number: string) => {
    const trackingNumber = number.replace(/[\s-]/g, "").toUpperCase();
    const code = relayFor(trackingNumber);
    if (!code) {
      loadSaid.replaceChildren(notice("error", ltr(trackingNumber), " — ", t("notOnRun")));
      return;
    }
    const outcome = await submit("load", `/relays/${code}/load`, { trackingNumber }, trackingNumber);
    if (outcome.outcome !== "refused" && !loaded.has(trackingNumber)) {
      loaded.add(trackingNumber);
      loadedSinceRead += 1;
    }
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
      void readAgain();
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
        if (!(await readAgain())) {
          refreshed.replaceChildren(errorNotice(new NetworkError()));
          return;
        }
        const left = currentDay()?.aboardDzd ?? 0;
        // The count is made against the cash aboard as the server says it now.
        const fresh = depositForm();
        cash.replaceWith(fresh);
        cash = fresh;
        // "The hub confirmed" only after a deposit: with none, there was no cash to confirm.
        const confirmed = left === 0 && (currentRecord()?.depositedDzd ?? null) !== null;
        refreshed.replaceChildren(
          confirmed ? notice("ok", t("cashZero")) : notice("info", t("cashAboard"), " ", t("dzd", { n: amount(left) }))
        );
      }
    },
    t("refreshHub")
  );

  const finish = h(
    "button",
    {
      type: "button",
      class: "primary wide",
      id: "finish-stop",
      onclick: async () => {
        // What the hub took in is no longer aboard; what was loaded here for the relay points is.
        await updateRecord(r => (r.aboard = r.aboard.filter(n => loaded.has(n) || (relayFor(n) !== null && !arrival.includes(n)))));
        await markDone(stop);
        go({ screen: "run" });
      }
    },
    t("finishStop")
  );

  // The scans of this stop and the run read again redraw the list and the counts while it is shown.
  onDayChange(() => {
    if (counts.isConnected) void draw();
  });
  void draw();
  void readAgain();
  return screen(
    t("kind_HUB"),
    stop.hubCode ?? "",
    counts,
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
