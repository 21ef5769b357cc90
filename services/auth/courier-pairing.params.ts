import { Joi } from "../../lib/joi";
import { component, objectOf, uuidSchema } from "../../lib/openapi/json-schema";
import { uuid } from "../../lib/schemas";
import { deviceName, pairingCodeViewSchema } from "./pairing.params";

/** Pairing a courier's phone (issue 45 A, decision 0065): the back-office's code, and the courier app's exchange of it for a staff key. */

export interface CreateCourierPairingCodeParams {
  id: string;
  deviceName: string | null;
}
export const CreateCourierPairingCodeSchema = Joi.object<CreateCourierPairingCodeParams, true>({
  id: uuid().required().description("The courier's id."),
  deviceName: deviceName().description("The phone's name, given to its key unless the phone names itself, at most 100 characters.")
});

export const CourierPairingCodeViewSchema = pairingCodeViewSchema("CourierPairingCode", "courier app", "/courier/");

export interface PairedCourierDevice {
  key: string;
  id: string;
  name: string | null;
  courierId: string;
  courierName: string;
  hubId: string;
}

export const PairedCourierDeviceSchema = component(
  "CourierPairedDevice",
  objectOf<PairedCourierDevice>({
    key: {
      type: "string",
      pattern: "^rp_staff_[A-Za-z0-9]{40}$",
      description: "This phone's courier key: keep it, it is not shown again."
    },
    id: uuidSchema("The key's id, as the back-office lists it (GET /staff-keys)."),
    name: { type: ["string", "null"], description: "The key's name, as the operator lists it." },
    courierId: uuidSchema("The courier."),
    courierName: { type: "string", examples: ["Karim Saïdi"] },
    hubId: uuidSchema("The courier's home hub.")
  })
);
