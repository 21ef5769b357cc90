import { RELAY_IDEMPOTENCY_KEY_HEADER } from "../../../lib/idempotency";
import { IdempotentMeta, relayIdempotently } from "./relay-idempotency";
import type { ServiceSchema, ServiceSettingSchema } from "moleculer";
import { randomUUID } from "node:crypto";
import { defineAction } from "../../../lib/action";
import type { AgentMeta } from "../../../lib/agent-keys";
import type { Database } from "../../../lib/db/database";
import { RELAY_POINTS_PATH } from "../../../lib/endpoint";
import { AppError } from "../../../lib/errors";
import { pageOf } from "../../../lib/parcel-view";
import type { RelayPointEntry } from "../../../lib/relay-points";
import { NoParams, NoParamsSchema } from "../../../lib/schemas";
import { findRelayPoint } from "../relay-points.store";
import { applyClosure } from "./closure-effects";
import { algiersToday, closureLength, closureProblems } from "./closures";
import {
  AffectedParcelPage,
  AffectedParcelPageSchema,
  AffectedParcelsParams,
  AffectedParcelsSchema,
  AffectedParcelView,
  CLOSURE_DESCRIPTION,
  ClosureBody,
  ClosureBodySchema,
  ClosureCreatedSchema,
  ClosureCreatedView,
  ClosureIdParams,
  ClosureIdSchema,
  ClosureListSchema,
  ClosureView,
  RelayClosureParams,
  RelayClosureSchema,
  RelayCodePathParams,
  RelayCodePathSchema
} from "./closures.params";
import * as store from "./closures.store";

interface ClosuresThis {
  db: Database;
  runRelay(): Promise<number>;
}

const CLOSURES_PATH = `${RELAY_POINTS_PATH}/:code/closures`;

const relayNotFound = (code: string) => new AppError("RELAY_POINT_NOT_FOUND", `Relay point ${code} does not exist`);

async function relayOrNotFound(db: Database, code: string): Promise<RelayPointEntry> {
  const relay = await findRelayPoint(db, code);
  if (!relay) throw relayNotFound(code);
  return relay;
}

export function toClosureView(closure: store.ClosureRecord): ClosureView {
  return {
    id: closure.id,
    relayCode: closure.relayCode,
    from: closure.from,
    to: closure.to,
    reason: closure.reason,
    days: closureLength(closure),
    announcedBy: closure.announcedBy,
    createdAt: closure.createdAt.toISOString()
  };
}

/**
 * Stores a closure and applies it to the parcels already addressed to the point, in one
 * transaction: the closure exists exactly when its deadline changes and webhooks do.
 */
async function announce(
  self: ClosuresThis,
  code: string,
  body: ClosureBody,
  announcedBy: store.ClosureAuthor
): Promise<ClosureCreatedView> {
  const relay = await relayOrNotFound(self.db, code);
  const problems = closureProblems(body, algiersToday(new Date()));
  if (problems.length > 0) throw new AppError("VALIDATION_FAILED", "The request is not valid", { details: problems });
  const { closure, effects } = await self.db
    .transaction(async tx => {
      const closure = await store.insertClosure(tx, { id: randomUUID(), relayCode: relay.code, ...body, announcedBy });
      return { closure, effects: await applyClosure(tx, relay, closure) };
    })
    .finally(() => void self.runRelay());
  return { ...toClosureView(closure), ...effects };
}

async function listClosures(db: Database, code: string): Promise<{ items: ClosureView[] }> {
  return { items: (await store.currentAndFutureClosures(db, code, algiersToday(new Date()))).map(toClosureView) };
}

function toAffectedParcel(p: import("../parcels.store").ParcelRecord): AffectedParcelView {
  return {
    id: p.id,
    trackingNumber: p.trackingNumber,
    organizationId: p.organizationId,
    mode: p.mode,
    status: p.status as AffectedParcelView["status"],
    createdAt: p.createdAt.toISOString()
  };
}

/**
 * Relay closures (issue 22), as actions of `parcels`, which owns the directory: the back-office's
 * add, list, remove and affected parcels, and the relay agent's own announcement. The rules are
 * in closures.ts; what a closure does to parcels, closure-effects.ts. Every instance reads
 * closures from the database, so one added on any node applies on all at once.
 */
const mixin: Partial<ServiceSchema<ServiceSettingSchema, object, ClosuresThis>> = {
  actions: {
    addRelayClosure: defineAction<RelayClosureParams, ClosuresThis>({
      rest: `POST ${CLOSURES_PATH}`,
      api: "backoffice",
      schema: RelayClosureSchema,
      endpoint: {
        operationId: "addRelayClosure",
        summary: "Close a relay point for some days",
        description: CLOSURE_DESCRIPTION,
        tag: "Relay points",
        status: 201,
        location: { action: "parcels.listRelayClosures", params: { code: "params.code" } },
        response: ClosureCreatedSchema,
        responseDescription: "Stored and applied.",
        errors: ["RELAY_POINT_NOT_FOUND"],
        body: { name: "RelayClosureRequest", description: "The days closed." }
      },
      handler(ctx): Promise<ClosureCreatedView> {
        const { code, ...body } = ctx.params;
        return announce(this, code, body, "backoffice");
      }
    }),

    listRelayClosures: defineAction<RelayCodePathParams, ClosuresThis>({
      rest: `GET ${CLOSURES_PATH}`,
      api: "backoffice",
      schema: RelayCodePathSchema,
      endpoint: {
        operationId: "listRelayClosures",
        summary: "List a relay point's closures",
        description: "Its current and future closures, by first day, whether an operator or the relay agent announced them.",
        tag: "Relay points",
        response: ClosureListSchema,
        responseDescription: "The closures.",
        errors: ["RELAY_POINT_NOT_FOUND"]
      },
      async handler(ctx): Promise<{ items: ClosureView[] }> {
        await relayOrNotFound(this.db, ctx.params.code);
        return listClosures(this.db, ctx.params.code);
      }
    }),

    removeRelayClosure: defineAction<ClosureIdParams, ClosuresThis>({
      rest: `DELETE ${CLOSURES_PATH}/:id`,
      api: "backoffice",
      schema: ClosureIdSchema,
      endpoint: {
        operationId: "removeRelayClosure",
        summary: "Remove a relay point's closure",
        description:
          "The point takes new parcels again on those days, at once in every instance. Deadlines the closure pushed stay as they " +
          "are (recipients were told); correct one with PUT /parcels/{id}/pickup-deadline if need be.",
        tag: "Relay points",
        status: 204,
        responseDescription: "Removed.",
        errors: ["RELAY_POINT_NOT_FOUND", "CLOSURE_NOT_FOUND"]
      },
      async handler(ctx) {
        await relayOrNotFound(this.db, ctx.params.code);
        if (!(await store.deleteClosure(this.db, ctx.params.code, ctx.params.id))) {
          throw new AppError("CLOSURE_NOT_FOUND", "Closure not found");
        }
        return null;
      }
    }),

    listAffectedParcels: defineAction<AffectedParcelsParams, ClosuresThis>({
      rest: `GET ${RELAY_POINTS_PATH}/:code/affected-parcels`,
      api: "backoffice",
      schema: AffectedParcelsSchema,
      endpoint: {
        operationId: "listRelayAffectedParcels",
        summary: "Parcels on their way to a relay point",
        description:
          "Parcels addressed to the point and not there yet (CREATED to IN_TRANSIT), live and sandbox, oldest first: those a " +
          "closure of the point affects. Their merchants got a relay.closure_announced webhook when the closure was added.",
        tag: "Relay points",
        response: AffectedParcelPageSchema,
        responseDescription: "A page of parcels.",
        errors: ["RELAY_POINT_NOT_FOUND"]
      },
      async handler(ctx): Promise<AffectedParcelPage> {
        const { code, page, size } = ctx.params;
        await relayOrNotFound(this.db, code);
        const { records, total } = await store.parcelsOnTheWay(this.db, code, { limit: size, offset: page * size });
        return pageOf(records.map(toAffectedParcel), page, size, total);
      }
    }),

    relayAnnounceClosure: defineAction<ClosureBody, ClosuresThis, IdempotentMeta>({
      rest: "POST /closures",
      api: "relay",
      schema: ClosureBodySchema,
      endpoint: {
        operationId: "announceRelayClosure",
        summary: "Announce a closure of this relay point",
        description:
          "This relay point will be closed on these days (holidays, works): the same as the back-office's closure, which sees it. " +
          "New parcels stop coming CLOSURE_NOTICE_DAYS days (2) before; parcels on the shelf get later deadlines.",
        tag: "Counter",
        status: 201,
        response: ClosureCreatedSchema,
        responseDescription: "Stored and applied.",
        errors: ["RELAY_POINT_NOT_FOUND", "IDEMPOTENCY_KEY_REUSED", "CONFLICT"],
        parameters: [RELAY_IDEMPOTENCY_KEY_HEADER],
        body: { name: "RelayAgentClosureRequest", description: "The days closed." }
      },
      handler(ctx): Promise<ClosureCreatedView> {
        return relayIdempotently(this.db, ctx, "closure", async () => {
          return announce(this, ctx.meta.agent.relayCode, ctx.params, "agent");
        });
      }
    }),

    relayClosures: defineAction<NoParams, ClosuresThis, AgentMeta>({
      rest: "GET /closures",
      api: "relay",
      schema: NoParamsSchema,
      endpoint: {
        operationId: "listOwnRelayClosures",
        summary: "This relay point's closures",
        description: "Its current and future closures, by first day, whoever announced them.",
        tag: "Counter",
        response: ClosureListSchema,
        responseDescription: "The closures.",
        errors: ["RELAY_POINT_NOT_FOUND"]
      },
      async handler(ctx): Promise<{ items: ClosureView[] }> {
        await relayOrNotFound(this.db, ctx.meta.agent.relayCode);
        return listClosures(this.db, ctx.meta.agent.relayCode);
      }
    })
  }
};

export const ClosuresMixin = mixin as Partial<ServiceSchema>;
