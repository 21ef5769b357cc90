import { call, serverNow } from "../api";
import { h } from "../../shared/dom";
import { clock, t } from "../i18n";
import { errorNotice, screen, slot } from "./common";
import { courierCashSection } from "./courier-cash";

interface CourierPass {
  pass: string;
  relayCode: string;
  expiresAt: string;
  qrSvg: string;
}

/** Asked again this long before the pass expires, so that the courier never scans a stale one. */
const RENEW_BEFORE_MS = 15_000;

/**
 * The courier's screen (issue 44, decision 0057): the signed courier pass as a QR, which the
 * courier scans on arrival to prove it stands at this counter. Renewed before it expires while the
 * screen shows it; the server signs it, so nothing secret is on this phone. Below it, the till's
 * cash the courier takes (courier-cash.ts, issue 45). Needs the network.
 */
export function courierScreen(): HTMLElement {
  const content = slot();
  let timer: number | undefined;
  const draw = async () => {
    window.clearTimeout(timer);
    try {
      const pass = await call<CourierPass>("POST", "/courier-pass");
      const image = h("img", {
        class: "courier-qr",
        id: "courier-qr",
        alt: t("courier"),
        width: "260",
        height: "260",
        src: `data:image/svg+xml;base64,${btoa(pass.qrSvg)}`
      });
      content.replaceChildren(
        h("p", null, t("courierIntro")),
        h("div", { class: "courier-pass" }, image),
        h("p", { class: "muted" }, t("courierExpires", { time: clock(new Date(pass.expiresAt)) })),
        h("button", { type: "button", class: "wide", onclick: () => void draw() }, t("courierNew"))
      );
      const renewIn = Math.max(5_000, Date.parse(pass.expiresAt) - serverNow().getTime() - RENEW_BEFORE_MS);
      timer = window.setTimeout(() => {
        if (content.isConnected) void draw();
      }, renewIn);
    } catch (err) {
      content.replaceChildren(errorNotice(err));
    }
  };
  void draw();
  return screen("courier", content, courierCashSection());
}
