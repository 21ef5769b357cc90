import type { StaffRole } from "../../lib/staff-keys";

/** What other services call `logistics` with, and what it answers. Types only. */

declare module "../../lib/contract" {
  interface ActionContracts {
    /** From auth, before a staff key is made: the courier or hub exists, and its hub. 404 NOT_FOUND otherwise. */
    "logistics.staffSubject": { params: { role: StaffRole; subjectId: string }; answer: { hubId: string } };
  }
}
