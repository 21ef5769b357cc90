import type { Context, Logger } from "moleculer";
import { call } from "../../lib/contract";

/**
 * A revoked key must stop working on the very next request, and gateways remember resolved keys
 * (services/gateway/principal-cache.ts): so the revocation is applied on every gateway node before the revoke
 * answers. A gateway that cannot be reached is cut off from the bus, where it can serve nothing
 * (every answer needs another service); it clears its whole cache when it reconnects.
 */
export async function forgetOnEveryGateway(ctx: Context, keyId: string, logger: Logger): Promise<void> {
  const nodes = new Set(
    ctx.broker.registry
      .getServiceList({ onlyAvailable: true, skipInternal: true })
      .filter(service => service.name === "gateway")
      .map(service => service.nodeID)
  );
  await Promise.all(
    [...nodes].map(nodeID =>
      call(ctx, "gateway.forgetApiKey", { keyId }, { nodeID, retries: 2, timeout: 5_000 }).catch((err: Error) =>
        logger.error(
          `gateway ${nodeID} did not confirm the revocation of key ${keyId}; it forgets every key when it reconnects:`,
          err.message
        )
      )
    )
  );
}
