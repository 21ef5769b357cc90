import { ApiError, call, NetworkError, Page, RelayParcel, sameNumber } from "../api";
import { h, ltr, notice } from "../../shared/dom";
import { amount, errorText, t } from "../i18n";
import { checkPin, offlinePinVerifier, spendOfflinePin, wrongTries } from "../offline-pin";
import { checkPass, parsePass, ScannedPass } from "../pickup-pass";
import { submit } from "../outbox";
import { scanField } from "../scan-field";
import { currentDay, loadDay, onShelf, shelfParcel } from "../state";
import { answerSlot, errorNotice, screen, slot } from "./common";
import { visitMemory } from "../visit-memory";

/**
 * Hand-over, two factors: the parcel's label is scanned (or, found by its hint, scanned to
 * confirm) and the recipient's PIN typed; then the exact cash. A prepaid parcel is one scan, the
 * PIN and one tap. Or the recipient's pickup pass is scanned (the QR of their SMS's page): the
 * parcel and the proof in one scan, no PIN (pickup-pass.ts). With no network, the pass is checked
 * on the phone with the server's public key, the PIN against its verifier where the operator's
 * limits allow one (offline-pin.ts), cash only, and the hand-over waits in the outbox.
 */
type Tender = "cash" | "card" | "qr";

/** The parcel by its number: the server's answer when there is a network, else the day's copy. */
async function findOnShelf(number: string): Promise<RelayParcel | undefined> {
  if (navigator.onLine) {
    try {
      const parcel = await call<RelayParcel>("GET", `/parcels/${encodeURIComponent(number.trim())}`);
      return onShelf(parcel) ? parcel : undefined;
    } catch (err) {
      if (err instanceof ApiError) return undefined;
    }
  }
  if (!currentDay()) await loadDay().catch(() => undefined);
  return shelfParcel(number);
}

/**
 * The shelf parcels whose hint matches: the last digits of the phone, the initial, or both. The
 * server knows whole phones; the phone's copy only the hint's two digits and initial (offline).
 */
async function byHint(hint: string): Promise<RelayParcel[]> {
  const text = hint.replace(/[\s.]/g, "").toUpperCase();
  if (navigator.onLine) {
    try {
      const page = await call<Page<RelayParcel>>("GET", `/parcels?hint=${encodeURIComponent(text)}&size=100`);
      return page.items.filter(onShelf);
    } catch (err) {
      if (err instanceof ApiError && err.status === 400) return [];
    }
  }
  if (!currentDay()) await loadDay().catch(() => undefined);
  const [, initial = "", digits = ""] = /^(\D?)(\d*)$/u.exec(text) ?? [];
  return (currentDay()?.parcels ?? [])
    .filter(onShelf)
    .filter(p => p.recipientHint.toUpperCase().startsWith(initial) && p.recipientHint.replace(/\D/g, "").endsWith(digits.slice(-2)));
}

/**
 * Where this visit's hand-over stands, so that a language switch redraws it there: the parcel
 * scanned and the PIN typed stay, in the other language (visit-memory.ts).
 */
type Step = { at: "scan" } | { at: "confirmScan"; parcel: RelayParcel } | { at: "pin"; parcel: RelayParcel; pin: string; pass?: string };

export function handoverScreen(): HTMLElement {
  const step = slot();
  const { slot: result, say } = answerSlot("handover");
  const memory = visitMemory<{ step: Step }>("handover:step", () => ({ step: { at: "scan" } }));

  const start = () => {
    memory.step = { at: "scan" };
    const hintInput = h("input", { id: "hint", name: "hint", type: "text", autocomplete: "off", maxlength: 6, dir: "ltr" });
    const matches = slot();
    step.replaceChildren(
      scanField({
        id: "handover-scan",
        label: t("scanLabelOrPass"),
        // A pass is about 125 characters (its signature), a label's number 13.
        maxLength: 160,
        onValue: async scanned => {
          const pass = parsePass(scanned);
          if (pass) return passScanned(pass);
          const parcel = await findOnShelf(scanned);
          if (!parcel) say(() => notice("error", t("notOnShelf")));
          else confirmed(parcel);
        }
      }),
      h(
        "form",
        {
          class: "hint",
          onsubmit: async (event: Event) => {
            event.preventDefault();
            const found = await byHint(hintInput.value);
            matches.replaceChildren(
              found.length
                ? h(
                    "ul",
                    { class: "list" },
                    found.map(p =>
                      h(
                        "li",
                        { class: "parcel" },
                        h("div", { class: "parcel-main" }, h("strong", null, ltr(p.recipientHint)), " ", ltr(p.trackingNumber)),
                        h("button", { type: "button", class: "small", onclick: () => confirmByScan(p) }, t("choose"))
                      )
                    )
                  )
                : notice("info", t("noMatch"))
            );
          }
        },
        h("label", { for: "hint" }, t("findByHint"), " — ", t("hintLabel")),
        h("div", { class: "scan-row" }, hintInput, h("button", { type: "submit", class: "secondary" }, t("search")))
      ),
      matches
    );
  };

  /**
   * Found by hint: the label must still be scanned, so that the PIN and the parcel are one.
   * `resumed`: drawn again for a language switch, so the answer under the field is kept.
   */
  const confirmByScan = (parcel: RelayParcel, resumed = false) => {
    memory.step = { at: "confirmScan", parcel };
    if (!resumed) say(null);
    step.replaceChildren(
      h("p", null, h("strong", null, ltr(parcel.recipientHint)), " ", ltr(parcel.trackingNumber)),
      scanField({
        id: "handover-confirm-scan",
        label: t("scanAgain"),
        onValue: number => {
          if (sameNumber(number, parcel.trackingNumber)) confirmed(parcel);
          else say(() => notice("error", t("scanMismatch")));
        }
      })
    );
  };

  /**
   * A pickup pass scanned: its parcel on this shelf, and offline the pass checked here with the
   * server's key and the shelf's pass version; online the server checks it with the hand-over.
   */
  const passScanned = async (pass: ScannedPass) => {
    const parcel = await findOnShelf(pass.trackingNumber);
    if (!parcel) return say(() => notice("error", t("notOnShelf")));
    if (navigator.onLine) return confirmed(parcel, undefined, pass.text);
    const me = currentDay()?.me;
    const check = me?.pickupPassKey ? await checkPass(pass, me.relayCode, me.pickupPassKey, parcel.passVersion ?? 1) : "unsupported";
    if (check === "valid") return confirmed(parcel, undefined, pass.text);
    say(() =>
      notice(
        "error",
        check === "void" ? errorText("PICKUP_PASS_VOID") : check === "invalid" ? errorText("PICKUP_PASS_INVALID") : t("passNotChecked")
      )
    );
  };

  /**
   * The parcel is the one: its PIN (or the pass scanned), and the cash or another tender.
   * `resumedPin`: drawn again for a language switch, with the PIN typed so far; the answer under
   * the field is kept. Offline without a pass, the PIN is offered only where the phone holds a
   * verifier the operator's limits allow (none for COD by default).
   */
  const confirmed = (parcel: RelayParcel, resumedPin?: string, pass?: string) => {
    const at = { at: "pin" as const, parcel, pin: resumedPin ?? "", pass };
    memory.step = at;
    if (resumedPin === undefined) say(null);
    const offline = !navigator.onLine;
    const cod = parcel.codToCollectDzd ?? 0;
    if (offline && !pass && !offlinePinVerifier(parcel.trackingNumber)) {
      step.replaceChildren(
        h("p", { class: "parcel-title" }, h("strong", null, ltr(parcel.recipientHint)), " ", ltr(parcel.trackingNumber)),
        notice("info", t("offlinePinNotOffered")),
        h("button", { type: "button", class: "secondary wide", id: "handover-back", onclick: () => start() }, t("scanOther"))
      );
      return;
    }
    const pin = h("input", {
      id: "pin",
      name: "pin",
      type: "text",
      inputmode: "numeric",
      autocomplete: "off",
      pattern: "[0-9]{6}",
      maxlength: 6,
      required: true,
      dir: "ltr",
      class: "pin",
      value: at.pin,
      oninput: () => (at.pin = pin.value)
    });
    const reference = h("input", { id: "tender-reference", name: "tenderReference", type: "text", autocomplete: "off", dir: "ltr" });
    const referenceRow = h(
      "div",
      { class: "field", hidden: true },
      h("label", { for: "tender-reference" }, t("tenderReference")),
      reference
    );
    const cashBox = h("input", { id: "cash-taken", name: "cashTaken", type: "checkbox", required: true });
    const cashRow = h("label", { class: "choice cash", for: "cash-taken" }, cashBox, t("cashTaken", { n: amount(cod) }));
    let key = crypto.randomUUID();
    let sentBody = "";

    const tenders: Tender[] = offline ? ["cash"] : ["cash", "card", "qr"];
    const tenderChoice = h(
      "fieldset",
      { class: "choices inline" },
      h("legend", null, t("tender")),
      tenders.map((tender, index) =>
        h(
          "label",
          { class: "choice" },
          h("input", {
            type: "radio",
            name: "tender",
            value: tender,
            checked: index === 0,
            onchange: () => {
              const cash = tender === "cash";
              cashRow.hidden = !cash;
              cashBox.required = cash;
              referenceRow.hidden = cash;
              reference.required = !cash;
            }
          }),
          t(tender === "cash" ? "tenderCash" : tender === "card" ? "tenderCard" : "tenderQr")
        )
      )
    );

    const form = h(
      "form",
      {
        class: "stack",
        onsubmit: async (event: Event) => {
          event.preventDefault();
          const tender = (new FormData(form).get("tender") as Tender | null) ?? "cash";
          const body: Record<string, unknown> = pass
            ? { trackingNumber: parcel.trackingNumber, pass }
            : { trackingNumber: parcel.trackingNumber, pin: pin.value.trim() };
          if (cod) body.codCollectedDzd = cod;
          if (cod && tender !== "cash") Object.assign(body, { tender, tenderReference: reference.value.trim() });
          if (!navigator.onLine) return pass ? offlinePassHandover(parcel, body) : offlineHandover(parcel, body);
          // A re-send after no answer carries the same key and body: the server answers the first.
          if (JSON.stringify(body) !== sentBody) key = crypto.randomUUID();
          sentBody = JSON.stringify(body);
          try {
            await call("POST", "/handovers", body, { idempotencyKey: key });
            handedOver(parcel, false);
          } catch (err) {
            if (err instanceof ApiError && err.code !== "PIN_INCORRECT") sentBody = "";
            pin.value = "";
            at.pin = "";
            say(() => errorNotice(err));
            if (!(err instanceof NetworkError)) pin.focus();
          }
        }
      },
      h("p", { class: "parcel-title" }, h("strong", null, ltr(parcel.recipientHint)), " ", ltr(parcel.trackingNumber)),
      h("p", { class: cod ? "amount" : "muted", id: "cod" }, cod ? t("codToCollect", { n: amount(cod) }) : t("prepaid")),
      pass ? notice("ok", t("passChecked")) : h("div", { class: "field" }, h("label", { for: "pin" }, t("pinLabel")), pin),
      cod ? tenderChoice : null,
      cod ? cashRow : null,
      cod ? referenceRow : null,
      offline && cod ? notice("info", t("offlineCashOnly")) : null,
      h("button", { type: "submit", class: "primary wide", id: "handover-confirm" }, t("handoverButton"))
    );
    step.replaceChildren(form);
    if (!pass) pin.focus();
  };

  /** Offline with a pass the phone checked: queued with it, for the server to check again (no PIN, no verifier). */
  const offlinePassHandover = async (parcel: RelayParcel, body: Record<string, unknown>) => {
    const outcome = await submit("handover", "/handovers", { ...body, offline: true }, parcel.trackingNumber);
    if (outcome.outcome === "refused") say(() => errorNotice(outcome.error));
    else handedOver(parcel, outcome.outcome === "queued");
  };

  const offlineHandover = async (parcel: RelayParcel, body: Record<string, unknown>) => {
    const verifier = offlinePinVerifier(parcel.trackingNumber);
    if (!verifier) {
      say(() => notice("error", t("offlineNoVerifier")));
      return;
    }
    const check = await checkPin(verifier, String(body.pin));
    if (!check.ok) {
      say(() =>
        notice("error", check.locked ? errorText("PIN_LOCKED") : `${errorText("PIN_INCORRECT")} ${t("triesLeft", { n: check.triesLeft })}`)
      );
      return;
    }
    // The wrong PINs this phone refused for the parcel go with it: the server counts them against its five (issue 43).
    const offlineWrongTries = wrongTries(verifier);
    const outcome = await submit(
      "handover",
      "/handovers",
      { ...body, offline: true, pinVersion: verifier.pinVersion, ...(offlineWrongTries > 0 ? { offlineWrongTries } : {}) },
      parcel.trackingNumber
    );
    if (outcome.outcome !== "refused") spendOfflinePin();
    if (outcome.outcome === "refused") say(() => errorNotice(outcome.error));
    else handedOver(parcel, outcome.outcome === "queued");
  };

  const handedOver = (parcel: RelayParcel, queued: boolean) => {
    const day = currentDay();
    if (day) day.parcels = day.parcels.filter(p => p.trackingNumber !== parcel.trackingNumber);
    start();
    say(() => notice(queued ? "info" : "ok", t(queued ? "handedOverQueued" : "handedOver", { n: parcel.trackingNumber })));
  };

  const kept = memory.step;
  if (kept.at === "confirmScan") confirmByScan(kept.parcel, true);
  else if (kept.at === "pin") confirmed(kept.parcel, kept.pin, kept.pass);
  else start();
  return screen("handover", step, result);
}
