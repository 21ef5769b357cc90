import type { CallOptions } from "./api-client";
import { h, notice } from "./dom";
import type { ScanFieldOptions } from "./scan-field";

/** The pairing code in the address the operator's QR opens (/counter/#pair=CODE, /courier/#pair=CODE), if any. */
export function pairCodeInAddress(): string | null {
  const match = /^#pair=([A-Za-z0-9-]{4,16})$/.exec(location.hash);
  return match ? match[1] : null;
}

type PairWord = "pairDeviceDefault" | "pairTitle" | "pairIntro" | "pairDevice" | "pairCode";

/** What differs between the apps' pairing screens: their API, words, scan field, and what they keep. */
export interface PairScreenOptions<A> {
  call: <T>(method: "POST", path: string, body: unknown, options: CallOptions) => Promise<T>;
  t: (key: PairWord) => string;
  scanField: (options: ScanFieldOptions) => HTMLElement;
  errorNotice: (err: unknown) => HTMLElement;
  slot: () => HTMLElement;
  /** Keeps the API's answer (POST /pairings) as this phone's pairing. */
  save: (answer: A) => void;
  /** The first screen once paired: its fragment, and how to go there. */
  homeHash: string;
  goHome: () => void;
  /**
   * One Idempotency-Key per code's exchange, so that one sent again after a lost answer gets the
   * same key back (the courier app, decision 0065). The counter app has always sent none.
   */
  idempotent: boolean;
}

/**
 * Pairing: the operator's 8-character code (typed, or its QR opened) is exchanged for this
 * phone's own key (POST /pairings), kept on the phone and never shown.
 */
export function createPairScreen<A>(options: PairScreenOptions<A>): (onPaired: () => void) => HTMLElement {
  const { t } = options;
  return onPaired => {
    const result = options.slot();
    const device = h("input", { id: "device-name", name: "deviceName", type: "text", value: t("pairDeviceDefault"), maxlength: 60 });
    const keys = new Map<string, string>();
    const pair = async (code: string) => {
      let idempotencyKey: string | undefined;
      if (options.idempotent) {
        idempotencyKey = keys.get(code) ?? crypto.randomUUID();
        keys.set(code, idempotencyKey);
      }
      try {
        const answer = await options.call<A>(
          "POST",
          "/pairings",
          { code, deviceName: device.value.trim() || t("pairDeviceDefault") },
          idempotencyKey ? { anonymous: true, idempotencyKey } : { anonymous: true }
        );
        options.save(answer);
        history.replaceState(null, "", options.homeHash);
        onPaired();
        options.goHome();
      } catch (err) {
        result.replaceChildren(options.errorNotice(err));
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
      options.scanField({
        id: "pair-code",
        label: t("pairCode"),
        maxLength: 16,
        // The operator's QR holds the whole address: its fragment is the code.
        onValue: value => void pair(/#pair=([A-Za-z0-9-]+)/.exec(value)?.[1] ?? value)
      }),
      fromAddress ? notice("info", fromAddress) : null,
      result
    );
  };
}

/** The button under an UNAUTHENTICATED error (the key revoked): forgets the pairing and opens the pairing screen. */
export function pairAgainButton(label: string, forgetAndPair: () => void): HTMLElement {
  return h("button", { type: "button", class: "small", onclick: forgetAndPair }, label);
}
