import type { StaffRole } from "../../lib/staff-keys";
import type { CustodyEntry } from "./network/network.params";

/** What other services call `logistics` with, and what it answers. Types only. */

declare module "../../lib/contract" {
  interface ActionContracts {
    /** From auth, before a staff key is made: the courier or hub exists, and its hub. 404 NOT_FOUND otherwise. */
    "logistics.staffSubject": { params: { role: StaffRole; subjectId: string }; answer: { hubId: string } };
    /** From parcels, for the evidence of a loss claim it opens (issue 44 D): the parcel's custody trail, oldest first. */
    "logistics.getCustody": { params: { id: string }; answer: { parcelId: string; trail: CustodyEntry[] } };
  }
}
