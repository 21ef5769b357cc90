import { createPairScreen } from "../../shared/pair-screen";
import { call } from "../api";
import { savePairing } from "../device";
import { t } from "../i18n";
import { go } from "../router";
import { scanField } from "../scan-field";
import { errorNotice, slot } from "./common";

export { pairCodeInAddress } from "../../shared/pair-screen";

interface PairingAnswer {
  key: string;
  id: string;
  name: string | null;
  courierId: string;
  courierName: string;
  hubId: string;
}

/**
 * Pairing (web/shared/pair-screen.ts): the operator's code exchanged for this phone's own courier
 * key (POST /pairings, decision 0065), with one Idempotency-Key per code so that an exchange sent
 * again after a lost answer gets the same key back.
 */
export const pairScreen = createPairScreen<PairingAnswer>({
  call,
  t,
  scanField,
  errorNotice,
  slot,
  save: answer =>
    savePairing({
      key: answer.key,
      courierId: answer.courierId,
      courierName: answer.courierName,
      hubId: answer.hubId,
      deviceName: answer.name
    }),
  homeHash: "#run",
  goHome: () => go({ screen: "run" }),
  idempotent: true
});
