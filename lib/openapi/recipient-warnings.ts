import type { RecipientWarning } from "../recipient-phone";
import { arrayOf, component, objectOf } from "./json-schema";

/** The `warnings` of a create or quote answer (issue 30): present only when there is one. */
export const RECIPIENT_WARNINGS_SCHEMA = arrayOf(
  component(
    "RecipientWarning",
    objectOf<RecipientWarning>(
      {
        code: {
          type: "string",
          enum: ["RECIPIENT_PHONE_NOT_MOBILE"],
          description:
            "RECIPIENT_PHONE_NOT_MOBILE: the number matches the accepted pattern but is not a mobile number (a landline, or " +
            "too short for its country). The parcel is accepted; the recipient gets no SMS (each is recorded as undeliverable) " +
            "and you get parcel.recipient_unreachable. Set rejectNonMobilePhones (PUT /recipient-settings) to have such " +
            "numbers refused with 400 RECIPIENT_PHONE_INVALID instead."
        },
        field: { type: "string", enum: ["recipientPhone"], description: "The request field the warning is about." },
        message: { type: "string", description: "For people; may change." }
      },
      { description: "Something accepted that you may want to fix." }
    )
  ),
  "Present only when there is something to say: what was accepted but will not work as you may expect."
);
