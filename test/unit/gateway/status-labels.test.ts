import { LANGUAGES } from "../../../lib/languages";
import { PARCEL_STATUSES } from "../../../lib/parcel-status";
import { MESSAGES } from "../../../services/gateway/tracking-page/messages";

/**
 * Issue 30: a recipient reads the timeline by its titles. Two statuses with one title (the English
 * page said "Ready for collection" for the courier's pick-up and "Ready for pick-up" for theirs)
 * tell them the wrong thing, so no two statuses share a title, nor a detail, in any language.
 */
describe("status labels on the tracking page", () => {
  test.each([...LANGUAGES])("%s: every status has its own title and its own detail", lang => {
    const statuses = MESSAGES[lang].statuses;
    const titles = PARCEL_STATUSES.map(s => statuses[s].title.trim().toLowerCase());
    const details = PARCEL_STATUSES.map(s => statuses[s].detail.trim().toLowerCase());
    const shared = (list: string[]) => list.filter((t, i) => list.indexOf(t) !== i);
    expect({ lang, titles: shared(titles), details: shared(details) }).toEqual({ lang, titles: [], details: [] });
    for (const title of titles) expect(title.length).toBeGreaterThan(0);
  });

  test("English says who the parcel waits for: the courier before it leaves, the recipient at the relay point", () => {
    expect(MESSAGES.en.statuses.READY_FOR_PICKUP.title).toBe("Waiting for the courier");
    expect(MESSAGES.en.statuses.RELAY_NOTIFIED.title).toBe("Ready for you at the relay point");
    expect(MESSAGES.en.statuses.READY_FOR_PICKUP.title).not.toMatch(/pick-?up|collect/i);
  });
});
