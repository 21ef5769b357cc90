/**
 * Signing webhook deliveries (SPEC §6 and Standard Webhooks), the endpoint's secrets and their
 * rotation, and the notice of a disabled endpoint. The webhooks service imports from here.
 */
export { signWebhookBody, verifyWebhookSignature } from "./relay-signature";
export { signStandardWebhook, STANDARD_SIGNATURE_VERSION } from "./standard-signature";
export {
  generateWebhookSecret,
  isStandardWebhooksSecret,
  relaySignatureKeyOf,
  standardSignatureKeyOf,
  standardWebhooksSecretOf,
  GENERATED_SECRET_BYTES,
  STANDARD_SECRET_PREFIX
} from "./secrets";
export {
  activeSigningSecrets,
  rotateWebhookSecret,
  unexpiredSecrets,
  DEFAULT_ROTATION_OVERLAP_MS,
  MAX_ROTATION_OVERLAP_MS
} from "./rotation";
export type { EndpointSecret, Instant } from "./rotation";
export { signWebhookDelivery, NoActiveWebhookSecretError } from "./delivery-headers";
export type { DeliverySignatureHeaders, DeliveryToSign } from "./delivery-headers";
export { endpointDisabledNotice } from "./endpoint-disabled-notice";
export type { EndpointDisabledNotice, EndpointDisabledNoticeInput } from "./endpoint-disabled-notice";
