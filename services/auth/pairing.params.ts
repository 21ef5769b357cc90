import { Joi } from "../../lib/joi";
import { component, dateTime, objectOf, uuidSchema } from "../../lib/openapi/json-schema";
import { relayCode } from "../../lib/schemas";
import { SPOKEN_CODE_LENGTH } from "../../lib/spoken-code";

/** Pairing a phone with a relay point: the back-office's code, and the phone's exchange of it for an agent key. */

export const deviceName = () => Joi.string().trim().min(1).max(100).allow(null).default(null);

export interface CreatePairingCodeParams {
  code: string;
  deviceName: string | null;
}
export const CreatePairingCodeSchema = Joi.object<CreatePairingCodeParams, true>({
  code: relayCode().required().description("The relay point's code.").example("DZ-16-ALGER-CENTRE"),
  deviceName: deviceName().description("The phone's name, given to its key unless the phone names itself, at most 100 characters.")
});

export interface PairingCodeView {
  code: string;
  expiresAt: string;
  qrSvg: string;
  pairUrl: string;
}

/** The drawn code's answer, for the app (counter, courier) that exchanges it. */
export const pairingCodeViewSchema = (name: string, app: string, appPath: string) =>
  component(
    name,
    objectOf<PairingCodeView>({
      code: {
        type: "string",
        pattern: `^[A-HJKMNP-Z2-9]{${SPOKEN_CODE_LENGTH}}$`,
        description: `The one-time code to type in the ${app} (no 0/O, 1/I/L). Shown here only: we keep its hash.`,
        examples: ["K7QX3MPA"]
      },
      expiresAt: dateTime("The code works until this time (15 minutes), UTC, once."),
      qrSvg: {
        type: "string",
        description: "An SVG image of a QR code of pairUrl on this server's public address, to scan with the phone."
      },
      pairUrl: { type: "string", description: `The ${app}'s address that pairs with this code.`, examples: [`${appPath}#pair=K7QX3MPA`] }
    })
  );

export const PairingCodeViewSchema = pairingCodeViewSchema("RelayPairingCode", "counter app", "/counter/");

export interface PairingParams {
  code: string;
  deviceName: string | null;
}
export const PairingSchema = Joi.object<PairingParams, true>({
  code: Joi.string()
    .trim()
    .min(1)
    .max(32)
    .required()
    .description("The pairing code from the back-office, as typed: case, spaces and dashes do not matter.")
    .example("K7QX-3MPA"),
  deviceName: deviceName()
    .description("This phone's name (in the key list the operator sees), at most 100 characters.")
    .example("Samsung A05 comptoir")
});

export interface PairedDevice {
  key: string;
  id: string;
  name: string | null;
  relayCode: string;
  relayName: string;
}

export const PairedDeviceSchema = component(
  "RelayPairedDevice",
  objectOf<PairedDevice>({
    key: { type: "string", pattern: "^rp_agent_[A-Za-z0-9]{40}$", description: "This device's agent key: keep it, it is not shown again." },
    id: uuidSchema(),
    name: { type: ["string", "null"], description: "The key's name, as the operator lists it." },
    relayCode: { type: "string", examples: ["DZ-16-ALGER-CENTRE"] },
    relayName: { type: "string" }
  })
);

export const PAIRING_TAG = { name: "Pairing", description: "A phone paired with a relay point, by a one-time code: no key to type." };
