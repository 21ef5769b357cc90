import { h, notice } from "../../shared/dom";
import { call } from "../api";
import { savePairing } from "../device";
import { t } from "../i18n";
import { go } from "../router";
import { scanField } from "../scan-field";
import { errorNotice, slot } from "./common";

interface PairingAnswer {
  key: string;
  id: string;
  name: string | null;
  courierId: string;
  courierName: string;
  hubId: string;
}

/** The pairing code in the address the operator's QR opens (/courier/#pair=CODE), if any. */
export function pairCodeInAddress(): string | null {
  const match = /^#pair=([A-Za-z0-9-]{4,16})$/.exec(location.hash);
  return match ? match[1] : null;
}

/**
 * Pairing: the operator's 8-character code (typed, or its QR opened) is exchanged for this
 * phone's own courier key (POST /pairings, decision 0065), kept on the phone and never shown.
 */
export function pairScreen(onPaired: () => void): HTMLElement {
  const result = slot();
  const device = h("input", { id: "device-name", name: "deviceName", type: "text", value: t("pairDeviceDefault"), maxlength: 60 });
  // One key for this code's exchange: sent again after a lost answer, the same key comes back.
  const keys = new Map<string, string>();
  const pair = async (code: string) => {
    const idempotencyKey = keys.get(code) ?? crypto.randomUUID();
    keys.set(code, idempotencyKey);
    try {
      const answer = await call<PairingAnswer>(
        "POST",
        "/pairings",
        { code, deviceName: device.value.trim() || t("pairDeviceDefault") },
        { anonymous: true, idempotencyKey }
      );
      savePairing({
        key: answer.key,
        courierId: answer.courierId,
        courierName: answer.courierName,
        hubId: answer.hubId,
        deviceName: answer.name
      });
      history.replaceState(null, "", "#run");
      onPaired();
      go({ screen: "run" });
    } catch (err) {
      result.replaceChildren(errorNotice(err));
    }
  };
  const fromAddress = pairCodeInAddress();
  if (fromAddress) queueMicrotask(() => void pair(fromAddress));
  return h(
    "section",
    { class: "screen", "aria-labelledby": "screen-title" },
    h("div", { class: "screen-head" }, h("h1", { id: "screen-title", tabindex: "-1" }, t("pairTitle"))),
    h("p", null, t("pairIntro")),
    h("div", { class: "field" }, h("label", { for: "device-name" }, t("pairDevice")), device),
    scanField({
      id: "pair-code",
      label: t("pairCode"),
      maxLength: 16,
      // The operator's QR holds the whole address: its fragment is the code.
      onValue: value => void pair(/#pair=([A-Za-z0-9-]+)/.exec(value)?.[1] ?? value)
    }),
    fromAddress ? notice("info", fromAddress) : null,
    result
  );
}
