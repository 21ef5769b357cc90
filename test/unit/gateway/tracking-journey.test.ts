import { journeyTitle, latestStepWhileInTransit } from "../../../services/gateway/tracking-page/journey";
import type { TrackingPageParcel } from "../../../lib/public-tracking";

/** Decision 0058: the middle mile's words on the tracking page, the wilaya in the reader's script. */
describe("the tracking page's middle-mile steps", () => {
  const at = "2026-03-12T10:00:00.000Z";

  test("at a hub: the wilaya's name in French (with its elision), Arabic and English", () => {
    expect(journeyTitle({ step: "at_hub", wilaya: "16", occurredAt: at }, "fr").text).toBe("Au centre de tri, wilaya d’<bdi>Alger</bdi>");
    expect(journeyTitle({ step: "at_hub", wilaya: "09", occurredAt: at }, "fr").text).toBe("Au centre de tri, wilaya de <bdi>Blida</bdi>");
    expect(journeyTitle({ step: "at_hub", wilaya: "31", occurredAt: at }, "ar").text).toBe("في مركز الفرز، ولاية <bdi>وهران</bdi>");
    expect(journeyTitle({ step: "missorted", wilaya: "31", occurredAt: at }, "en").text).toBe(
      "Sent to <bdi>Oran</bdi> by mistake, now on its way to your relay point"
    );
    expect(journeyTitle({ step: "to_relay", wilaya: null, occurredAt: at }, "ar").text).toBe("في الطريق إلى نقطة الاستلام");
    // A wrong relay point carries no wilaya: "another relay point".
    expect(journeyTitle({ step: "missorted", wilaya: null, occurredAt: at }, "fr").text).toBe(
      "Arrivé par erreur à un autre point relais, renvoyé vers le vôtre"
    );
  });

  test("the latest step is the news only while the parcel is IN_TRANSIT and nothing newer changed its status", () => {
    const parcel = (status: TrackingPageParcel["status"], statusAt: string) =>
      ({
        status,
        events: [{ status, occurredAt: statusAt }],
        journey: [{ step: "at_hub", wilaya: "16", occurredAt: at }]
      }) as TrackingPageParcel;
    expect(latestStepWhileInTransit(parcel("IN_TRANSIT", at))?.step).toBe("at_hub");
    expect(latestStepWhileInTransit(parcel("AT_RELAY", "2026-03-12T11:00:00.000Z"))).toBeNull();
    expect(latestStepWhileInTransit(parcel("IN_TRANSIT", "2026-03-12T11:00:00.000Z"))).toBeNull();
  });
});
