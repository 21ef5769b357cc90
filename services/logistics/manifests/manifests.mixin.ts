import type { Context, ServiceSchema, ServiceSettingSchema } from "moleculer";
import { defineAction } from "../../../lib/action";
import { idempotencyKeyOf, RELAY_IDEMPOTENCY_KEY_HEADER } from "../../../lib/idempotency";
import { pageOf } from "../../../lib/parcel-view";
import type { PartnerMeta } from "../../../lib/principal";
import type { StaffMeta } from "../../../lib/staff-keys";
import type { LogisticsThis } from "../logistics-this";
import { PICKUP_IDEMPOTENCY_KEY_HEADER } from "../logistics.params";
import type { ManifestDocument } from "../logistics.contract";
import { occurredAtOf, StaffContext } from "../network/scans";
import type { Owner } from "../pickups/pickups.store";
import { checkDayExists, createManifest, MANIFEST_NOT_FOUND, ManifestDeps, manifestViews } from "./manifests";
import {
  CreateManifestParams,
  CreateManifestSchema,
  ManifestIdParams,
  ManifestIdSchema,
  ManifestListParams,
  ManifestListSchema,
  ManifestPage,
  ManifestPageSchema,
  ManifestScanAnswer,
  ManifestScanAnswerSchema,
  ManifestScanParams,
  ManifestScanSchema,
  ManifestView,
  ManifestViewSchema
} from "./manifests.params";
import { scanManifest } from "./manifest-scan";
import * as store from "./manifests.store";

function deps(service: LogisticsThis, ctx: Context): ManifestDeps {
  return {
    db: service.db,
    caller: ctx,
    publicBaseUrl: service.config.publicBaseUrl,
    urlSecret: service.config.secrets.labelUrlSecret ?? null
  };
}

const ownerOf = (ctx: Context<unknown, PartnerMeta>): Owner => ({ organizationId: ctx.meta.auth.organizationId, mode: ctx.meta.auth.mode });

const CREATE_DESCRIPTION =
  "The list of parcels the courier collects at one address on one day, as an A4 PDF (French and Arabic) with one Code 128 " +
  "and one QR code of the manifest's number: the courier scans it once to announce every parcel listed, then each parcel " +
  "is confirmed taken by its own scan or by your count. Give `pickupId` (the pickup's address, day and parcels still to " +
  "collect) or `parcelIds` with `address` and `pickupDate`. Each parcel must be yours, CREATED or READY_FOR_PICKUP, and " +
  "on no other manifest (409 PARCEL_ALREADY_ON_MANIFEST). A manifest never changes: for more parcels, make another one.";

/** The partner API's manifests, the labels' read of one, and the courier's scan of one (issue 44 B). */
const mixin: Partial<ServiceSchema<ServiceSettingSchema, object, LogisticsThis>> = {
  actions: {
    createManifest: defineAction<CreateManifestParams, LogisticsThis, PartnerMeta & { idempotencyKey?: string }>({
      rest: "POST /manifests",
      api: "partner",
      scope: "parcels:write",
      schema: CreateManifestSchema,
      endpoint: {
        operationId: "createManifest",
        summary: "Make a manifest",
        description: CREATE_DESCRIPTION,
        tag: "Pickups",
        status: 201,
        location: { action: "logistics.getManifest", params: { id: "response.id" } },
        response: ManifestViewSchema,
        responseDescription: "Made. Location points to the manifest; pdfUrl is its document.",
        errors: [
          "PICKUP_NOT_FOUND",
          "PARCEL_NOT_FOUND",
          "PARCEL_NOT_PICKABLE",
          "PARCEL_ALREADY_ON_MANIFEST",
          "CONFLICT",
          "IDEMPOTENCY_KEY_IN_USE",
          "IDEMPOTENCY_KEY_REUSED"
        ],
        parameters: [{ ...PICKUP_IDEMPOTENCY_KEY_HEADER, example: "manifest-2026-03-12" }],
        body: { name: "ManifestCreateRequest", description: "The stop and its parcels. Unknown fields are refused." }
      },
      async handler(ctx): Promise<ManifestView> {
        const d = deps(this, ctx);
        const manifest = await createManifest(d, ownerOf(ctx), ctx.params, idempotencyKeyOf(ctx.meta));
        return (await manifestViews(d, [manifest]))[0];
      }
    }),

    listManifests: defineAction<ManifestListParams, LogisticsThis, PartnerMeta>({
      rest: "GET /manifests",
      api: "partner",
      scope: "parcels:read",
      schema: ManifestListSchema,
      endpoint: {
        operationId: "listManifests",
        summary: "List manifests",
        description: "Your manifests of the key's mode, newest first, optionally of one pickup day or one pickup.",
        tag: "Pickups",
        response: ManifestPageSchema,
        responseDescription: "A page of manifests."
      },
      async handler(ctx): Promise<ManifestPage> {
        if (ctx.params.pickupDate !== null) checkDayExists(ctx.params.pickupDate);
        const { records, total } = await store.listManifests(this.db, ownerOf(ctx), ctx.params);
        return pageOf(await manifestViews(deps(this, ctx), records), ctx.params.page, ctx.params.size, total);
      }
    }),

    getManifest: defineAction<ManifestIdParams, LogisticsThis, PartnerMeta>({
      rest: "GET /manifests/:id",
      api: "partner",
      scope: "parcels:read",
      schema: ManifestIdSchema,
      endpoint: {
        operationId: "getManifest",
        summary: "Read a manifest",
        description: "A manifest of yours, its lines and totals, and a fresh pdfUrl.",
        tag: "Pickups",
        response: ManifestViewSchema,
        responseDescription: "The manifest.",
        errors: ["MANIFEST_NOT_FOUND"]
      },
      async handler(ctx): Promise<ManifestView> {
        const manifest = await store.findManifest(this.db, ctx.params.id, ownerOf(ctx));
        if (!manifest) throw MANIFEST_NOT_FOUND();
        return (await manifestViews(deps(this, ctx), [manifest]))[0];
      }
    }),

    // call logistics.manifestDocument --id <uuid>
    manifestDocument: defineAction<ManifestIdParams, LogisticsThis>({
      visibility: "public",
      schema: ManifestIdSchema,
      async handler(ctx): Promise<ManifestDocument> {
        const manifest = await store.findManifest(this.db, ctx.params.id, null);
        if (!manifest) throw MANIFEST_NOT_FOUND();
        const view = (await manifestViews(deps(this, ctx), [manifest]))[0];
        const { pdfUrl: _url, ...rest } = view;
        return { ...rest, organizationId: manifest.organizationId, sandbox: manifest.mode === "sandbox" };
      }
    }),

    courierManifestScan: defineAction<ManifestScanParams, LogisticsThis, StaffMeta & { idempotencyKey?: string }>({
      rest: "POST /pickups/:id/manifest-scans",
      api: "courier",
      schema: ManifestScanSchema,
      endpoint: {
        operationId: "scanManifestAtPickup",
        summary: "Scan a merchant's manifest",
        description:
          "One scan of the manifest's Code 128 or QR announces every parcel it lists to the pickup (added to the pickup if it " +
          "was not there; READY_FOR_PICKUP). Nothing is collected yet: scan each parcel, or close the stop with the " +
          "merchant's count code and count. Another merchant's manifest is 404. Idempotency-Key: the same scan sent again " +
          "changes nothing twice.",
        tag: "Courier",
        response: ManifestScanAnswerSchema,
        responseDescription: "What the scan announced.",
        errors: ["PICKUP_NOT_FOUND", "MANIFEST_NOT_FOUND", "CONFLICT", "OCCURRED_AT_OUT_OF_RANGE", "IDEMPOTENCY_KEY_IN_USE"],
        parameters: [RELAY_IDEMPOTENCY_KEY_HEADER],
        body: { name: "ManifestScanRequest", description: "The scanned manifest number." }
      },
      handler(ctx): Promise<ManifestScanAnswer> {
        const at = occurredAtOf(ctx.meta.staff, ctx.params.occurredAt);
        return scanManifest(this.db, ctx as StaffContext, ctx.params.id, ctx.params.manifestNumber, at);
      }
    })
  }
};

export const ManifestsMixin = mixin as Partial<ServiceSchema>;
