import { decodeEventCursor, encodeEventCursor } from "./event-cursor";
import { AppError } from "../../lib/errors";
import { EVENT_RETENTION_DAYS, ParcelEvent, parcelOf, WebhookBody, webhookBodyOf, withFreshLabelUrl } from "../../lib/events";
import type { Principal } from "../../lib/principal";
import { freshLabelUrls } from "../../mixins/label-urls";
import type { WebhooksContext } from "./webhook-context";
import type { EventIdParams, EventPage, ListEventsParams } from "./webhooks.params";
import * as store from "./webhooks.store";

/**
 * The events API: a merchant's events of the last 30 days, of its key's mode, oldest first, each
 * exactly the body that was (or would be) delivered, with a label URL fresh at the read, as at
 * every delivery attempt.
 */

async function bodiesOf(context: WebhooksContext, events: ParcelEvent[]): Promise<WebhookBody[]> {
  const labelUrls = await freshLabelUrls(
    context.broker,
    context.broker,
    events.flatMap(e => parcelOf(e)?.id ?? [])
  );
  return events.map(event => webhookBodyOf(withFreshLabelUrl(event, labelUrls)));
}

export async function listEvents(context: WebhooksContext, auth: Principal, params: ListEventsParams): Promise<EventPage> {
  const after = params.after === null ? null : decodeEventCursor(params.after);
  if (params.after !== null && after === null) {
    throw new AppError("VALIDATION_FAILED", "The request is not valid", {
      details: [{ field: "after", message: "is not a cursor this API gave: pass the `next` of a previous page" }]
    });
  }
  // One more than asked: tells whether another page is waiting.
  const rows = await store.listEvents(context.db, {
    organizationId: auth.organizationId,
    mode: auth.mode,
    after,
    type: params.type,
    parcelId: params.parcelId,
    limit: params.limit + 1,
    retentionDays: EVENT_RETENTION_DAYS
  });
  const page = rows.slice(0, params.limit);
  const last = page.at(-1);
  return {
    items: await bodiesOf(
      context,
      page.map(r => r.event)
    ),
    next: last ? encodeEventCursor(last.position) : params.after,
    hasMore: rows.length > params.limit
  };
}

export async function getEvent(context: WebhooksContext, auth: Principal, params: EventIdParams): Promise<WebhookBody> {
  const event = await store.findEvent(context.db, {
    organizationId: auth.organizationId,
    mode: auth.mode,
    id: params.id,
    retentionDays: EVENT_RETENTION_DAYS
  });
  if (!event) throw new AppError("EVENT_NOT_FOUND", "Event not found");
  return (await bodiesOf(context, [event]))[0];
}
