import type { ServiceSchema } from "moleculer";
import type { ServiceName } from "../lib/config";
import AuthService from "./auth.service";
import GatewayService from "./gateway.service";
import LabelsService from "./labels.service";
import NotificationsService from "./notifications.service";
import ParcelsService from "./parcels.service";
import WalletService from "./wallet.service";
import WebhooksService from "./webhooks.service";

/** Each service is typed with its own settings, methods and vars; the broker takes them untyped. */
function untyped<S, M, V>(schema: ServiceSchema<S, M, V>): ServiceSchema {
  return schema as unknown as ServiceSchema;
}

export const SERVICE_SCHEMAS: Record<ServiceName, ServiceSchema> = {
  gateway: untyped(GatewayService),
  auth: untyped(AuthService),
  wallet: untyped(WalletService),
  parcels: untyped(ParcelsService),
  labels: untyped(LabelsService),
  notifications: untyped(NotificationsService),
  webhooks: untyped(WebhooksService)
};
