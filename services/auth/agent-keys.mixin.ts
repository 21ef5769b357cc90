import { randomUUID } from "node:crypto";
import type { Context, Logger, ServiceSchema, ServiceSettingSchema } from "moleculer";
import { defineAction } from "../../lib/action";
import { AgentPrincipal, generateAgentKey } from "../../lib/agent-keys";
import { call } from "../../lib/contract";
import type { Database } from "../../lib/db/database";
import { RELAY_POINTS_PATH } from "../../lib/endpoint";
import { AppError, errorCodeOf } from "../../lib/errors";
import type { AgentKeyRecord, NewAgentKey } from "./auth.contract";
import {
  AgentKeyView,
  CREATE_AGENT_KEY_DESCRIPTION,
  CreateAgentKeyParams,
  CreateAgentKeySchema,
  NewAgentKeyView,
  RelayCodeParams,
  RelayCodeSchema,
  ResolveAgentKeyParams,
  ResolveAgentKeySchema,
  RevokeAgentKeyParams,
  RevokeAgentKeySchema
} from "./agent-keys.params";
import * as store from "./agent-keys.store";

interface AgentKeysThis {
  db: Database;
  logger: Logger;
}

/** The directory is `parcels`'s: a key is made only for a relay point it knows. */
export async function existingRelayPoint(ctx: Context, code: string): Promise<void> {
  try {
    await call(ctx, "parcels.relayPoint", { code });
  } catch (err) {
    if (errorCodeOf(err) === "RELAY_NOT_FOUND") throw new AppError("RELAY_POINT_NOT_FOUND", `Relay point ${code} does not exist`);
    throw err;
  }
}

/**
 * Relay-agent keys, owned by `auth` beside partner keys but in a table of their own: an agent key
 * belongs to a relay point, has no organisation, no scopes and no mode, and opens the relay API
 * only. The gateway does not remember resolved agent keys (a counter makes a few calls a minute),
 * so a revoked key is refused from the very next request, on every gateway.
 */
const mixin: Partial<ServiceSchema<ServiceSettingSchema, object, AgentKeysThis>> = {
  actions: {
    // call auth.createAgentKey --code DZ-16-ALGER-CENTRE --name "Counter 1"
    createAgentKey: defineAction<CreateAgentKeyParams, AgentKeysThis>({
      rest: `POST ${RELAY_POINTS_PATH}/:code/agent-keys`,
      api: "backoffice",
      schema: CreateAgentKeySchema,
      endpoint: {
        operationId: "createAgentKey",
        summary: "Create a relay agent key (shown once)",
        description: CREATE_AGENT_KEY_DESCRIPTION,
        tag: "Relay agent keys",
        status: 201,
        location: { action: "auth.listAgentKeys", params: { code: "params.code" } },
        response: NewAgentKeyView,
        responseDescription: "Created. `key` is shown here only, never again.",
        errors: ["RELAY_POINT_NOT_FOUND"],
        body: { name: "AgentKeyCreateRequest", required: false, description: "The key to create." }
      },
      async handler(ctx): Promise<NewAgentKey> {
        await existingRelayPoint(ctx, ctx.params.code);
        const generated = generateAgentKey();
        const record = await store.insertAgentKey(this.db, {
          id: randomUUID(),
          relayCode: ctx.params.code,
          name: ctx.params.name,
          keyPrefix: generated.keyPrefix,
          keyHash: generated.keyHash
        });
        return { ...record, key: generated.key };
      }
    }),

    listAgentKeys: defineAction<RelayCodeParams, AgentKeysThis>({
      rest: `GET ${RELAY_POINTS_PATH}/:code/agent-keys`,
      api: "backoffice",
      schema: RelayCodeSchema,
      endpoint: {
        operationId: "listAgentKeys",
        summary: "List a relay point's agent keys (without secrets)",
        description: "Every agent key of the relay point, revoked ones included, by its prefix: never the secret, which we do not have.",
        tag: "Relay agent keys",
        response: { type: "array", items: AgentKeyView },
        responseDescription: "The keys, newest first.",
        errors: ["RELAY_POINT_NOT_FOUND"]
      },
      async handler(ctx): Promise<AgentKeyRecord[]> {
        await existingRelayPoint(ctx, ctx.params.code);
        return store.listAgentKeys(this.db, ctx.params.code);
      }
    }),

    revokeAgentKey: defineAction<RevokeAgentKeyParams, AgentKeysThis>({
      rest: `DELETE ${RELAY_POINTS_PATH}/:code/agent-keys/:keyId`,
      api: "backoffice",
      schema: RevokeAgentKeySchema,
      endpoint: {
        operationId: "revokeAgentKey",
        summary: "Revoke a relay agent key",
        description: "The key stops working on the very next request, in every gateway.",
        tag: "Relay agent keys",
        status: 204,
        responseDescription: "Revoked (also when it already was).",
        errors: ["AGENT_KEY_NOT_FOUND"]
      },
      async handler(ctx) {
        if (!(await store.revokeAgentKey(this.db, ctx.params.code, ctx.params.keyId))) {
          throw new AppError("AGENT_KEY_NOT_FOUND", "Agent key not found");
        }
        return null;
      }
    }),

    /** The gateway asks on every relay-API request; it sends only the hash, so the key never crosses the transporter. */
    resolveAgentKey: defineAction<ResolveAgentKeyParams, AgentKeysThis>({
      visibility: "public",
      schema: ResolveAgentKeySchema,
      handler(ctx): Promise<AgentPrincipal | null> {
        return store.findActiveAgent(this.db, ctx.params.keyHash);
      }
    })
  }
};

export const AgentKeysMixin = mixin as Partial<ServiceSchema>;
