import { acquireDatabase, releaseDatabase } from "../../lib/db/connection";
import type { Database } from "../../lib/db/database";
import { Merchant, merchants, PARCEL } from "../e2e/merchant-helpers";
import { testEngines } from "../helpers/engines";
import { inProcessSystem } from "../helpers/in-process-system";

/**
 * Issue 26, item 5, on each database engine: the change-relay forms of the tracking page take no
 * cross-site post (services/gateway/tracking-page/form-guard.ts), the page's own forms still work
 * as a browser without JavaScript posts them (a form body with the page's token, Origin and
 * Sec-Fetch-Site of this site, no script), and the redirect-code SMS to one phone number are
 * capped per day across its parcels (SMS_CODES_PER_PHONE_PER_DAY, 10 by default).
 */

const FORM = "application/x-www-form-urlencoded";

/** The page's post forms: action → token, as a browser would submit them. */
function postForms(page: string): Map<string, string> {
  const forms = new Map<string, string>();
  for (const match of page.matchAll(/<form method="post" action="([^"]+)">\s*<input type="hidden" name="formToken" value="([^"]+)">/g)) {
    forms.set(match[1], match[2]);
  }
  return forms;
}

describe.each(testEngines("tracking-forms-csrf"))("tracking page forms against cross-site posts (%s)", (_name, engine) => {
  const sut = inProcessSystem(async () => {
    const { env, url, drop } = await engine();
    return { env, drop, url: url ?? undefined };
  });
  const m = merchants(sut.system);
  let merchant: Merchant;
  let db: Database;
  const base = () => sut.system().baseUrl;

  beforeAll(async () => {
    merchant = await m.create("Forms SARL", 100_000);
    db = await acquireDatabase(sut.config());
  }, 60_000);

  afterAll(async () => {
    await releaseDatabase(sut.config());
  });

  const createParcel = async (recipientPhone = PARCEL.recipientPhone) => {
    const res = await merchant.live("POST", "/parcels", { ...PARCEL, recipientPhone });
    expect(res.status).toBe(201);
    return res.body as { id: string; trackingNumber: string };
  };
  const codeSmsOf = async (parcelIds: string[]) =>
    Number(
      (
        await db.query<{ n: string }>(
          "SELECT count(*) AS n FROM notifications.sms_messages WHERE kind = 'redirect_code' AND parcel_id = ANY($1::uuid[])",
          [parcelIds]
        )
      )[0].n
    );
  const page = async (path: string) => {
    const res = await fetch(base() + path);
    expect(res.status).toBe(200);
    return res.text();
  };
  const post = (path: string, fields: Record<string, string>, headers: Record<string, string>) =>
    fetch(base() + path, {
      method: "POST",
      redirect: "manual",
      headers: { "Content-Type": FORM, ...headers },
      body: new URLSearchParams(fields).toString()
    });
  const sameSite = () => ({ Origin: base(), "Sec-Fetch-Site": "same-origin" });

  it("refuses a cross-site post to the code form (other Origin, no token) with 403, and sends no SMS", async () => {
    const parcel = await createParcel();
    const action = `/track/${parcel.trackingNumber}/change/code`;
    const res = await post(action, {}, { Origin: "https://evil.example", "Sec-Fetch-Site": "cross-site" });
    expect(res.status).toBe(403);
    expect(((await res.json()) as { code: string }).code).toBe("FORBIDDEN");

    // A token the attacker fetched from the page itself does not make a cross-site post pass...
    const token = postForms(await page(`/track/${parcel.trackingNumber}/change`)).get(action)!;
    expect(token).toBeDefined();
    expect((await post(action, { formToken: token }, { Origin: "https://evil.example" })).status).toBe(403);
    expect((await post(action, { formToken: token }, { "Sec-Fetch-Site": "cross-site" })).status).toBe(403);
    // ...nor does this site's Origin without the page's token, or with another form's token.
    expect((await post(action, {}, sameSite())).status).toBe(403);
    const other = await createParcel();
    const otherToken = postForms(await page(`/track/${other.trackingNumber}/change`)).get(`/track/${other.trackingNumber}/change/code`)!;
    expect((await post(action, { formToken: otherToken }, sameSite())).status).toBe(403);
    expect((await post(action, { formToken: `${token.slice(0, -2)}AA` }, sameSite())).status).toBe(403);

    expect(await codeSmsOf([parcel.id, other.id])).toBe(0);
  });

  it("the page's own forms work as a browser without JavaScript posts them: code by SMS, then the change", async () => {
    const parcel = await createParcel();
    const tn = parcel.trackingNumber;
    const changePage = await page(`/track/${tn}/change?wilaya=16`);
    const forms = postForms(changePage);
    expect([...forms.keys()].sort()).toEqual([`/track/${tn}/change`, `/track/${tn}/change/code`]);
    const destination = [...changePage.matchAll(/name="destinationRelayCode" value="([^"]+)"/g)].map(match => match[1])[0];
    expect(destination).toMatch(/^DZ-16-/);

    const asked = await post(
      `/track/${tn}/change/code`,
      { formToken: forms.get(`/track/${tn}/change/code`)!, wilaya: "16", city: "" },
      sameSite()
    );
    expect(asked.status).toBe(303);
    expect(asked.headers.get("location")).toContain(`/track/${tn}/change?wilaya=16&sent=1`);
    const code = await sut.system().sms.redirectCodeOf(tn);

    // An older browser sends neither header: the page's token alone is enough then.
    const changed = await post(
      `/track/${tn}/change`,
      { formToken: forms.get(`/track/${tn}/change`)!, code, destinationRelayCode: destination },
      {}
    );
    expect(changed.status).toBe(303);
    expect(changed.headers.get("location")).toBe(`/track/${tn}?changed=1`);
    const after = (await merchant.live("GET", `/parcels/${parcel.id}`)).body as { destinationRelayCode: string };
    expect(after.destinationRelayCode).toBe(destination);
  });

  it("caps the redirect-code SMS to one phone number at 10 a day across its parcels; another number is not affected", async () => {
    const phone = "+213 661 23 45 67";
    const parcels = await Promise.all([1, 2, 3, 4].map(() => createParcel(phone)));
    // 3 codes an hour per parcel (parcels' own limit): 12 issued, over four parcels. (issueRedirectCode
    // is what the public request runs after answering, awaited here.)
    const issue = async (trackingNumber: string) =>
      (await sut.broker().call<{ outcome: string }, object>("parcels.issueRedirectCode", { trackingNumber })).outcome;
    for (const parcel of parcels) for (let i = 0; i < 3; i++) expect(await issue(parcel.trackingNumber)).toBe("sent");
    expect(await codeSmsOf(parcels.map(p => p.id))).toBe(10);

    const elsewhere = await createParcel("+213 770 98 76 54");
    expect(await issue(elsewhere.trackingNumber)).toBe("sent");
    expect(await codeSmsOf([elsewhere.id])).toBe(1);
  });
});
