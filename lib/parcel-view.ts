import type { ParcelStatus } from "./parcel-status";

/** SPEC §2.1: what the API shows of a parcel; never the recipient's name or phone. */
export interface ParcelView {
  id: string;
  trackingNumber: string;
  status: ParcelStatus;
  destinationRelayCode: string;
  labelUrl: string | null;
  pricePaidDzd: number;
  codAmountDzd: number | null;
  createdAt: string;
  updatedAt: string;
}

export interface ParcelPage {
  items: ParcelView[];
  page: number;
  size: number;
  totalElements: number;
  totalPages: number;
}
