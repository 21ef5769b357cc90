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
  name: string;
  relayCode: string;
  relayName: string;
}

/** Pairing (web/shared/pair-screen.ts): the operator's code exchanged for this phone's own agent key. */
export const pairScreen = createPairScreen<PairingAnswer>({
  call,
  t,
  scanField,
  errorNotice,
  slot,
  save: answer => savePairing({ key: answer.key, relayCode: answer.relayCode, relayName: answer.relayName, deviceName: answer.name }),
  homeHash: "#today",
  goHome: () => go("today"),
  // As it has always been: the relay API's pairing takes a key, the counter app never sent one.
  idempotent: false
});
