import type { Context, ServiceSchema, ServiceSettingSchema } from "moleculer";
import { defineAction } from "../../../lib/action";
import { AppError } from "../../../lib/errors";
import { idempotencyKeyOf } from "../../../lib/idempotency";
import { compensationCounter } from "../../../lib/metrics";
import { toDzd } from "../../../lib/money";
import { ParcelViewSchema } from "../../../lib/parcel-view";
import type { PartnerMeta } from "../../../lib/principal";
import { requestLogger } from "../../../lib/request-context";
import { createBatch } from "../create-batch";
import { SagaDeps, createParcel, priceParcel } from "../create-parcel";
import { returnFeeCentimes } from "../holding-period";
import {
  BATCH_EXAMPLES,
  BATCH_ITEMS_DOC,
  BatchResult,
  BatchResultView,
  CREATE_BATCH_DESCRIPTION,
  CREATE_DESCRIPTION,
  CREATE_EXAMPLES,
  CreateBatchParams,
  CreateBatchSchema,
  CreateParcelInput,
  CreateSchema,
  IDEMPOTENCY_KEY_HEADER,
  PARCELS_PATH,
  ParcelQuote,
  ParcelQuoteView,
  QUOTE_DESCRIPTION,
  QuoteInput,
  QuoteSchema
} from "../parcels.params";
import { acceptRecipientPhone } from "../recipient/phone-policy";
import { phoneOfItem, withRecipientWarnings } from "../recipient/recipient-warnings";
import { assertRelayOpenForNewParcels } from "../relay/closures";
import { priceBreakdown } from "../tariff";
import type { ParcelsThis } from "../parcels-this";

/** Creating parcels (one, or a batch) and quoting one: the create-parcel saga's actions (create-parcel.ts). */
const mixin: Partial<ServiceSchema<ServiceSettingSchema, object, ParcelsThis>> = {
  actions: {
    create: defineAction<CreateParcelInput, ParcelsThis, PartnerMeta & { idempotencyKey?: string }>({
      rest: `POST ${PARCELS_PATH}`,
      api: "partner",
      scope: "parcels:write",
      schema: CreateSchema,
      endpoint: {
        operationId: "createParcel",
        summary: "Create a parcel",
        description: CREATE_DESCRIPTION,
        tag: "Parcels",
        status: 201,
        location: { action: "parcels.get", params: { id: "response.id" } },
        response: ParcelViewSchema,
        responseDescription: "Created and paid. Location points to the parcel.",
        errors: [
          "RELAY_NOT_FOUND",
          "RECIPIENT_PHONE_INVALID",
          "RELAY_CLOSED",
          "INVALID_TARIFF",
          "INSUFFICIENT_BALANCE",
          "IDEMPOTENCY_KEY_IN_USE",
          "IDEMPOTENCY_KEY_REUSED"
        ],
        parameters: [IDEMPOTENCY_KEY_HEADER],
        body: { name: "ParcelCreateRequest", description: "A parcel to create. Unknown fields are refused.", examples: CREATE_EXAMPLES }
      },
      async handler(ctx) {
        const key = idempotencyKeyOf(ctx.meta);
        const owner = this.owner(ctx);
        const deps = { ...this.sagaDeps(ctx), recipient: await this.recipientSettings.of(owner) };
        const { parcel } = await createParcel(deps, owner, ctx.params, key);
        this.relaySoon();
        return withRecipientWarnings((await this.viewsOf(ctx, [parcel]))[0], ctx.params.recipientPhone, parcel);
      }
    }),

    quote: defineAction<QuoteInput, ParcelsThis, PartnerMeta>({
      rest: "POST /parcels/quote",
      api: "partner",
      scope: "parcels:read",
      schema: QuoteSchema,
      endpoint: {
        operationId: "quoteParcel",
        summary: "Quote a parcel's price",
        description: QUOTE_DESCRIPTION,
        tag: "Parcels",
        response: ParcelQuoteView,
        responseDescription: "The price, and what it is made of.",
        errors: ["RELAY_NOT_FOUND", "RECIPIENT_PHONE_INVALID", "RELAY_CLOSED", "INVALID_TARIFF"],
        body: {
          name: "ParcelQuoteRequest",
          description: "The fields of a creation; the recipient may be left out.",
          examples: CREATE_EXAMPLES
        }
      },
      async handler(ctx): Promise<ParcelQuote> {
        const { relay, quote } = await priceParcel(this.db, ctx.params);
        if (ctx.params.recipientPhone !== undefined) {
          acceptRecipientPhone(ctx.params.recipientPhone, await this.recipientSettings.of(this.owner(ctx)));
        }
        await assertRelayOpenForNewParcels({ db: this.db, noticeDays: this.config.closureNoticeDays }, relay.code);
        const price = {
          ...priceBreakdown(quote),
          returnFeeDzd: toDzd(returnFeeCentimes(quote.basePriceCentimes)),
          insuredValueDzd: toDzd(quote.insuredValueCentimes)
        };
        return withRecipientWarnings(price, ctx.params.recipientPhone);
      }
    }),

    createBatch: defineAction<CreateBatchParams, ParcelsThis, PartnerMeta & { idempotencyKey?: string }>({
      rest: "POST /parcels/batch",
      api: "partner",
      scope: "parcels:write",
      schema: CreateBatchSchema,
      // A hundred sagas one after the other; each wallet call keeps its own 10 s (create-batch.ts).
      timeout: 120_000,
      endpoint: {
        operationId: "createParcelBatch",
        summary: "Create up to 100 parcels",
        description: CREATE_BATCH_DESCRIPTION,
        tag: "Parcels",
        response: BatchResultView,
        responseDescription: "One result per item, created or not: see each item's status.",
        fields: { items: BATCH_ITEMS_DOC },
        body: { name: "ParcelBatchRequest", description: "The parcels to create.", examples: BATCH_EXAMPLES },
        // A hundred items with every field, 100-character names and 255-character keys.
        maxBodyBytes: 256 * 1024
      },
      async handler(ctx): Promise<BatchResult> {
        if (ctx.meta.idempotencyKey !== undefined) {
          throw new AppError("VALIDATION_FAILED", "The request is not valid", {
            details: [{ field: "Idempotency-Key", message: "is not accepted on a batch: give each item its own idempotencyKey" }]
          });
        }
        const owner = this.owner(ctx);
        const deps = { ...this.sagaDeps(ctx), recipient: await this.recipientSettings.of(owner) };
        const outcomes = await createBatch(deps, owner, ctx.params.items);
        this.relaySoon();
        const parcels = outcomes.flatMap(o => ("parcel" in o ? [o.parcel] : []));
        const views = new Map((await this.viewsOf(ctx, parcels)).map(view => [view.id, view]));
        const items = outcomes.map(o =>
          "parcel" in o
            ? {
                index: o.index,
                status: 201,
                idempotencyKey: o.idempotencyKey,
                replayed: o.replayed,
                parcel: withRecipientWarnings(views.get(o.parcel.id)!, phoneOfItem(ctx.params.items[o.index]), o.parcel),
                error: null
              }
            : { index: o.index, status: o.error.status, idempotencyKey: o.idempotencyKey, replayed: false, parcel: null, error: o.error }
        );
        const replayed = items.filter(item => item.replayed).length;
        return { created: parcels.length - replayed, replayed, failed: items.length - parcels.length, items };
      }
    })
  },

  methods: {
    /** What the create-parcel saga (single or batch) works with, for this call. */
    sagaDeps(this: ParcelsThis, ctx: Context): SagaDeps {
      return {
        db: this.db,
        encryptionKey: this.encryptionKey,
        logger: requestLogger(ctx, this.logger),
        caller: ctx,
        groups: this.createGroups,
        onCompensation: compensationCounter(this.broker),
        closureNoticeDays: this.config.closureNoticeDays
      };
    }
  }
};

export const CreateMixin = mixin as Partial<ServiceSchema>;
