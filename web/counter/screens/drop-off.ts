import { call, RelayParcel } from "../api";
import { code128Svg } from "../code128";
import { h, ltr, notice } from "../../shared/dom";
import { t } from "../i18n";
import { scanField } from "../scan-field";
import { answerSlot, errorNotice, screen } from "./common";

/**
 * A customer's return by its code: the answer is a new parcel whose number the shop writes on the
 * package, shown large and as a barcode for the courier's scanner (and its label, where the API
 * gives one, for a shop with a printer). Online only: the number comes from the server.
 */
export function dropOffScreen(): HTMLElement {
  const { slot: result, say } = answerSlot("dropOff");
  let key = crypto.randomUUID();
  let lastCode = "";
  const field = scanField({
    id: "return-code",
    label: t("returnCode"),
    maxLength: 12,
    onValue: async code => {
      if (!navigator.onLine) {
        say(() => notice("error", t("needsNetwork")));
        return;
      }
      // The same code sent again after no answer is the same operation.
      if (code !== lastCode) key = crypto.randomUUID();
      lastCode = code;
      try {
        const parcel = await call<RelayParcel>("POST", "/drop-offs", { returnCode: code }, { idempotencyKey: key });
        say(() =>
          h(
            "div",
            { class: "drop-off" },
            notice("ok", t("dropOffDone")),
            h("p", { class: "big-number", id: "return-number" }, ltr(parcel.trackingNumber)),
            code128Svg(parcel.trackingNumber, parcel.trackingNumber),
            parcel.labelUrl
              ? h("a", { href: parcel.labelUrl, class: "button secondary", target: "_blank", rel: "noopener" }, t("labelPdf"))
              : null
          )
        );
      } catch (err) {
        say(() => errorNotice(err));
      }
    }
  });
  return screen("dropOff", field, result);
}
