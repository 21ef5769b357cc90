import type { ServiceSchema } from "moleculer";
import type { ServiceName } from "../lib/config";
import AuthService from "./auth.service";
import GatewayService from "./gateway.service";
import ParcelsService from "./parcels.service";
import WalletService from "./wallet.service";

export const SERVICE_SCHEMAS: Partial<Record<ServiceName, ServiceSchema>> = {
  gateway: GatewayService as ServiceSchema,
  auth: AuthService as ServiceSchema,
  wallet: WalletService as ServiceSchema,
  parcels: ParcelsService as ServiceSchema
};
