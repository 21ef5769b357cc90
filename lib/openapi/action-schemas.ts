import type { ObjectSchema } from "joi";
import type { ActionSchema, ServiceSchema } from "moleculer";
import AuthService from "../../services/auth.service";
import ParcelsService from "../../services/parcels.service";
import WalletService from "../../services/wallet.service";
import WebhooksService from "../../services/webhooks.service";
import { extrasOf } from "../action";

/**
 * The Joi schema and scope of an action, read from the same service definitions that the
 * validation middleware and the gateway's scope check read at run time: the document cannot
 * describe a request differently from the way it is validated.
 */
const SERVICES: Record<string, ServiceSchema<any, any, any>> = {
  auth: AuthService,
  parcels: ParcelsService,
  wallet: WalletService,
  webhooks: WebhooksService
};

export interface ActionContract {
  schema: ObjectSchema<unknown> | undefined;
  scope: string | undefined;
}

export function actionContract(actionName: string): ActionContract {
  const [service, action] = actionName.split(".");
  const definition = SERVICES[service]?.actions?.[action] as ActionSchema | undefined;
  if (!definition || typeof definition !== "object") throw new Error(`OpenAPI: no action ${actionName}`);
  const extras = extrasOf(definition);
  return { schema: extras.schema, scope: extras.scope };
}
