import type { ActionSchema, ServiceSchema } from "moleculer";
import AuthService from "../../services/auth.service";
import GatewayService from "../../services/gateway.service";
import LabelsService from "../../services/labels.service";
import LogisticsService from "../../services/logistics.service";
import NotificationsService from "../../services/notifications.service";
import ParcelsService from "../../services/parcels.service";
import WalletService from "../../services/wallet.service";
import WebhooksService from "../../services/webhooks.service";

/** Every action definition of every service, by full name: tests read the declarations the registry carries. */
const SERVICES = [
  AuthService,
  GatewayService,
  LabelsService,
  LogisticsService,
  NotificationsService,
  ParcelsService,
  WalletService,
  WebhooksService
] as unknown as ServiceSchema[];

export const ACTION_DEFINITIONS: ReadonlyMap<string, ActionSchema> = new Map(
  SERVICES.flatMap(service =>
    [service, ...((service.mixins ?? []) as ServiceSchema[])].flatMap(schema =>
      Object.entries(schema.actions ?? {})
        .filter(([, action]) => typeof action === "object")
        .map(([name, action]) => [`${service.name}.${name}`, action as ActionSchema] as const)
    )
  )
);

export function actionDefinition(name: string): ActionSchema {
  const action = ACTION_DEFINITIONS.get(name);
  if (!action) throw new Error(`no action ${name}`);
  return action;
}
