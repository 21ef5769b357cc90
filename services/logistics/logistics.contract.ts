import type { StaffRole } from "../../lib/staff-keys";
import type { ManifestView } from "./manifests/manifests.params";
import type { CustodyEntry } from "./network/network.params";

/** What other services call `logistics` with, and what it answers. Types only. */

declare module "../../lib/contract" {
  interface ActionContracts {
    /** From auth, before a staff key is made: the courier or hub exists, and its hub. 404 NOT_FOUND otherwise. */
    "logistics.staffSubject": { params: { role: StaffRole; subjectId: string }; answer: { hubId: string; name: string } };
    /** Issue 45 (decision 0066): from parcels, before a courier's cash collection: the wilaya of the courier's hub. 404 NOT_FOUND otherwise. */
    "logistics.hubWilaya": { params: { hubId: string }; answer: { wilaya: string } };
    /**
     * Decision 0058: from parcels, when a relay's arrival scan answered WRONG_RELAY: the mis-sort is
     * recorded (an IN_TRANSIT live parcel only; `recorded` false otherwise or for a repeat).
     */
    "logistics.reportWrongRelay": {
      params: { trackingNumber: string; relayCode: string; relayWilaya: string | null };
      answer: { recorded: boolean };
    };
  }
}

/** Issue 44: what a manifest's document prints (labels renders it; the lines as made, never changed). */
export type ManifestDocument = Omit<ManifestView, "pdfUrl"> & { organizationId: string; sandbox: boolean };

declare module "../../lib/contract" {
  interface ActionContracts {
    /** From labels, once a manifest URL verified: the manifest to print. 404 MANIFEST_NOT_FOUND otherwise. */
    "logistics.manifestDocument": { params: { id: string }; answer: ManifestDocument };
    /** From parcels, for the evidence of a loss claim it opens (issue 44 D): the parcel's custody trail, oldest first. */
    "logistics.getCustody": { params: { id: string }; answer: { parcelId: string; trail: CustodyEntry[] } };
  }
}
