import { h, ltr, notice } from "../../shared/dom";
import type { ManifestScanAnswer, PickupView, RunStop, ScanAnswer } from "../api";
import { t } from "../i18n";
import { submit } from "../outbox";
import { pickupTally } from "../progress";
import { scanField } from "../scan-field";
import { currentDay, currentRecord, markDone, updateRecord } from "../state";
import { outcomeNotice, screen, slot } from "./common";
import { whereIs } from "./run";

/** The pickup's listed parcels: what the manifest announced, else what the run read. */
function expectedIds(pickupId: string): string[] {
  const announced = currentRecord()?.announced[pickupId];
  const view: PickupView | undefined = currentDay()?.pickups.find(p => p.id === pickupId);
  const listed = (view?.parcels ?? []).filter(p => p.state === "ANNOUNCED" || p.state === "COLLECTED").map(p => p.id);
  return [...new Set([...listed, ...(announced ?? [])])];
}

/**
 * At a merchant: the manifest's barcode, then each parcel; expected / scanned / missing /
 * unexpected shown as the courier scans, before leaving; the stop closed with the merchant's
 * one-time count code (POST /pickups/{id}/close).
 */
export function pickupScreen(stop: RunStop): HTMLElement {
  const pickupId = stop.pickupId ?? "";
  const tally = slot();
  const said = slot();
  const closeResult = slot();

  const drawTally = () => {
    const scans = currentRecord()?.scans[pickupId] ?? [];
    const counts = pickupTally(expectedIds(pickupId), scans);
    const cell = (id: string, key: "expected" | "scanned" | "missing" | "unexpected", n: number) =>
      h(
        "div",
        { class: `tile${key === "missing" && n > 0 ? " tile-alert" : ""}`, id },
        h("span", { class: "tile-label" }, t(key)),
        h("span", { class: "tile-value" }, ltr(n))
      );
    tally.replaceChildren(
      h(
        "div",
        null,
        h(
          "div",
          { class: "tiles" },
          cell("tally-expected", "expected", counts.expected),
          cell("tally-scanned", "scanned", counts.scanned),
          cell("tally-missing", "missing", counts.missing),
          cell("tally-unexpected", "unexpected", counts.unexpected.length)
        ),
        counts.missing > 0
          ? notice("error", t("missingWarn", { n: counts.missing }))
          : counts.expected > 0
            ? notice("ok", t("allThere"))
            : null,
        counts.unexpected.length
          ? h(
              "p",
              { id: "unexpected-list" },
              t("unexpectedList"),
              " ",
              counts.unexpected.map(n => [ltr(n), " "])
            )
          : null
      )
    );
  };

  const scanManifest = async (manifestNumber: string) => {
    const outcome = await submit(
      "manifest",
      `/pickups/${pickupId}/manifest-scans`,
      { manifestNumber: manifestNumber.toUpperCase() },
      manifestNumber
    );
    if (outcome.outcome === "done") {
      const answer = outcome.answer as ManifestScanAnswer;
      await updateRecord(r => (r.announced[pickupId] = [...new Set([...(r.announced[pickupId] ?? []), ...answer.announced])]));
      said.replaceChildren(notice("ok", t("manifestRead", { n: answer.announced.length })));
    } else said.replaceChildren(outcomeNotice(outcome, "", manifestNumber));
    drawTally();
  };

  const scanParcel = async (number: string) => {
    const trackingNumber = number.replace(/[\s-]/g, "").toUpperCase();
    await updateRecord(r => {
      r.scans[pickupId] = [...(r.scans[pickupId] ?? []).filter(s => s.trackingNumber !== trackingNumber), { trackingNumber }];
      if (!r.aboard.includes(trackingNumber)) r.aboard.push(trackingNumber);
    });
    drawTally();
    const outcome = await submit("collect", `/pickups/${pickupId}/scans`, { trackingNumber }, trackingNumber);
    if (outcome.outcome === "done") {
      const answer = outcome.answer as ScanAnswer;
      await updateRecord(r => {
        r.scans[pickupId] = (r.scans[pickupId] ?? []).map(s =>
          s.trackingNumber === trackingNumber ? { trackingNumber, parcelId: answer.parcelId, outcome: answer.outcome } : s
        );
      });
      said.replaceChildren(
        notice(
          answer.outcome === "UNEXPECTED" ? "error" : "ok",
          ltr(trackingNumber),
          " — ",
          t(answer.outcome === "UNEXPECTED" ? "unexpected" : "collected")
        )
      );
    } else {
      if (outcome.outcome === "refused")
        await updateRecord(r => {
          r.scans[pickupId] = (r.scans[pickupId] ?? []).filter(s => s.trackingNumber !== trackingNumber);
          r.aboard = r.aboard.filter(n => n !== trackingNumber);
        });
      said.replaceChildren(outcomeNotice(outcome, "", trackingNumber));
    }
    drawTally();
  };

  const code = h("input", {
    id: "count-code",
    name: "countCode",
    type: "text",
    inputmode: "numeric",
    maxlength: 6,
    pattern: "[0-9]{6}",
    dir: "ltr",
    autocomplete: "off"
  });
  const count = h("input", { id: "count", name: "count", type: "number", inputmode: "numeric", min: 1, max: 9999, dir: "ltr" });
  const closeForm = h(
    "form",
    {
      class: "stack",
      id: "close-form",
      onsubmit: async (event: Event) => {
        event.preventDefault();
        const typed = code.value.trim();
        const body = typed ? { countCode: typed, count: Number.parseInt(count.value, 10) || 0 } : {};
        const outcome = await submit("close", `/pickups/${pickupId}/close`, body, stop.confirmationNumber ?? pickupId);
        closeResult.replaceChildren(outcomeNotice(outcome, t("closed")));
        if (outcome.outcome !== "refused") await markDone(stop);
      }
    },
    h("h2", null, t("closeTitle")),
    h("div", { class: "field" }, h("label", { for: "count-code" }, t("countCode")), code),
    h("div", { class: "field" }, h("label", { for: "count" }, t("countLabel")), count),
    h("button", { type: "submit", class: "primary wide", id: "close-stop" }, t("closeStop"))
  );

  drawTally();
  return screen(
    t("kind_PICKUP"),
    h("span", null, whereIs(stop), " · ", ltr(stop.confirmationNumber ?? "")),
    scanField({ id: "manifest-scan", label: t("scanManifest"), onValue: value => void scanManifest(value), focus: false }),
    scanField({ id: "parcel-scan", label: t("scanParcel"), onValue: value => void scanParcel(value) }),
    said,
    tally,
    closeForm,
    closeResult
  );
}
