import { recipientHint } from "../../services/parcels/relay/relay-view";

describe("the counter's recipient hint", () => {
  test.each([
    ["Amina Benali", "+213 555 12 34 56", "A. ••56"],
    ["  karim", "0661 22 33 07", "K. ••07"],
    ["élise", "0555000001", "É. ••01"],
    ["أمينة بن علي", "+213 770 00 00 42", "أ. ••42"]
  ])("%s, %s → %s", (name, phone, hint) => {
    expect(recipientHint(name, phone)).toBe(hint);
  });

  test("never more than the initial and two digits", () => {
    const hint = recipientHint("Amina Benali", "+213 555 12 34 56");
    expect(hint).not.toContain("mina");
    expect(hint.replace(/\D/g, "")).toHaveLength(2);
  });
});
