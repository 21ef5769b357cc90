import type { ServiceSchema } from "moleculer";
import type { ServiceName } from "../lib/config";
import AuthService from "./auth.service";
import GatewayService from "./gateway.service";

export const SERVICE_SCHEMAS: Record<ServiceName, ServiceSchema> = {
  gateway: GatewayService as ServiceSchema,
  auth: AuthService as ServiceSchema
};
