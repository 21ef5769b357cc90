import { Joi } from "../../../lib/joi";
import { dateTimeText, uuid } from "../../../lib/schemas";
import type { NetworkStepRequest } from "../parcels.contract";
import { MAX_SCANS_PER_CALL } from "./network.params";

/** parcels.recordNetworkSteps (decision 0058): what logistics tells parcels of a parcel's way through the network. */

export interface RecordNetworkStepsParams {
  steps: NetworkStepRequest[];
}

const wilaya = () => Joi.string().pattern(/^\d{2}$/);

export const RecordNetworkStepsSchema = Joi.object<RecordNetworkStepsParams, true>({
  steps: Joi.array()
    .items(
      Joi.object({
        stepId: uuid().required(),
        parcelId: uuid().required(),
        kind: Joi.string().valid("at_hub", "missorted", "to_relay").required(),
        wilaya: wilaya().allow(null).required(),
        occurredAt: dateTimeText().required(),
        missort: Joi.object({
          reason: Joi.string().valid("OFF_ROUTE_HUB", "WRONG_RELAY").required(),
          foundInWilaya: wilaya().allow(null).required(),
          rerouteToWilaya: wilaya().allow(null).required(),
          rerouteToRelayCode: Joi.string().max(40).required()
        }).when("kind", { is: "missorted", then: Joi.required(), otherwise: Joi.forbidden() })
      })
    )
    .min(1)
    .max(MAX_SCANS_PER_CALL)
    .required()
});
