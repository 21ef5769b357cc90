import type { KeyObject } from "node:crypto";
import type { Context, Logger, Service, ServiceBroker } from "moleculer";
import type { BackgroundLoop } from "../../lib/background-loop";
import type { Caller } from "../../lib/contract";
import { AppError } from "../../lib/errors";
import type { ParcelView } from "../../lib/parcel-view";
import type { PartnerMeta } from "../../lib/principal";
import type { PublicTrackingSource } from "../../lib/public-tracking";
import type { ConfigVars } from "../../mixins/config.mixin";
import type { DbVars } from "../../mixins/db.mixin";
import type { CreateGroups } from "./create-groups";
import type { GroupSizes } from "./group-sizes";
import type { RecipientSettingsCache } from "./recipient/recipient-settings-cache";
import type { SagaDeps } from "./create-parcel";
import type { HandoverDeps } from "./handover";
import type { HoldingPassResult } from "./holding-pass";
import type { SweepResult } from "./parcels.contract";
import type * as store from "./parcels.store";
import type { ReturnsPassResult } from "./returns/returns-pass";
import type { LossPassResult } from "./custody/loss-pass";
import type { StatusChange } from "./status-change";
import type { VisibleParcelCache } from "./visible-parcel-cache";

/**
 * What the parcels service's actions see as `this`, whichever mixin defines them
 * (parcels.service.ts is the table of contents; create/, reads/, status/ and the others hold the actions).
 */
export interface ParcelsVars extends DbVars, ConfigVars {
  encryptionKey: string;
  /** The create path's writes, committed in groups (docs/decisions/0025). */
  createGroups: CreateGroups;
  /** The sizes of this instance's create groups (group-sizes.ts). */
  groupSizes: GroupSizes;
  /** Recipient settings for the create path, at most RECIPIENT_SETTINGS_TTL_MS old (recipient/recipient-settings-cache.ts). */
  recipientSettings: RecipientSettingsCache;
  relayLoop: BackgroundLoop<number>;
  sweepLoop: BackgroundLoop<SweepResult>;
  /** Issue 48: erases personal data PII_RETENTION_DAYS after a parcel's final status (retention.store.ts). */
  retentionLoop: BackgroundLoop<number>;
  /** Made by HoldingMixin (holding.mixin.ts); started by the service, once the database is open. */
  holdingLoop: BackgroundLoop<HoldingPassResult>;
  /** Made by ReturnsMixin (returns/returns.mixin.ts); started by the service, like the holding loop. */
  returnsLoop: BackgroundLoop<ReturnsPassResult>;
  /** Made by CustodyMixin (custody/custody.mixin.ts): the loss pass (issue 44 D); started like the holding loop. */
  lossLoop: BackgroundLoop<LossPassResult>;
  /** Made at the first read, for the database of this start. */
  visibleCache?: VisibleParcelCache;
  /** PICKUP_PASS_SIGNING_KEY, read by PickupPassMixin; null when none was configured (issue 43). */
  passSigningKey: KeyObject | null;
}

export interface ParcelsMethods {
  owner(ctx: Context<unknown, PartnerMeta>): store.Owner;
  sagaDeps(ctx: Context): SagaDeps;
  handoverDeps(ctx: Context): HandoverDeps;
  viewsOf(ctx: Context, parcels: store.ParcelRecord[]): Promise<ParcelView[]>;
  visibleOrNotFound(ctx: Context<unknown, PartnerMeta>, by: { id: string } | { trackingNumber: string }): Promise<store.ParcelRecord>;
  publicSourceOf(typed: string, options?: { journey?: boolean }): Promise<PublicTrackingSource | null>;
  changeStatus(
    id: string,
    decide: (parcel: store.ParcelRecord) => void,
    change: StatusChange
  ): Promise<{ before: store.ParcelRecord; after: store.ParcelRecord }>;
  refundCancelled(ctx: Context, parcel: store.ParcelRecord): Promise<void>;
  runRelay(): Promise<number>;
  relaySoon(): void;
  settleCrashedCreates(): Promise<void>;
  /**
   * After a change that may owe a return fee: asks the wallet now, so that the answer shows the fee
   * charged; if the wallet cannot answer, the fee stays owed and the holding pass asks again.
   */
  settleReturnFee(caller: Caller, parcel: store.ParcelRecord): Promise<store.ParcelRecord>;
}

export interface ParcelsThis extends ParcelsVars, ParcelsMethods {
  broker: ServiceBroker;
  logger: Logger;
  waitForServices: Service["waitForServices"];
}

export const PARCEL_NOT_FOUND = () => new AppError("PARCEL_NOT_FOUND", "Parcel not found");

/** What Joi cannot see (a field that depends on another), refused as Joi refuses: 400, field by field. */
export function refuseProblems(problems: { field: string; message: string }[]): void {
  if (problems.length > 0) throw new AppError("VALIDATION_FAILED", "The request is not valid", { details: problems });
}
