import type { LogisticsThis } from "../logistics-this";
import type { StaffContext } from "../network/scans";
import type { PickupRecord } from "../pickups/pickups.store";
import { confirmMerchantCount } from "./count-code";

/** The courier's close of a stop, before the reconciliation: the merchant's count, when the courier typed one. */
export async function closeWithMerchantCount(
  service: LogisticsThis,
  ctx: StaffContext,
  pickup: PickupRecord,
  params: { countCode?: string; count?: number },
  at: Date
): Promise<void> {
  if (params.countCode === undefined || params.count === undefined) return;
  await confirmMerchantCount(service.db, ctx, pickup, { countCode: params.countCode, count: params.count }, service.encryptionKey, at);
}
