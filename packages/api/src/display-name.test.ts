// Issue 8 item 9: display names that pose as other names are refused, everywhere nameSchema is used
// (sign-up, profile edit, names from Google, and the web forms).
import { describe, expect, it } from "vitest";
import { nameSchema, updateMeRequestSchema, signupRequestSchema } from "./auth.ts";

const refused = (name: string) => {
  const r = nameSchema.safeParse(name);
  return r.success ? null : r.error.issues[0]?.message;
};

describe("display names", () => {
  it("accept real names in any script, with emoji and joiners", () => {
    for (const name of [
      "Priya",
      "José Álvarez",
      "தமிழ் செல்வி",
      "क्‍ष", // ZWJ inside Devanagari
      "Ravi 🎬",
      "👩‍💻 Dev", // ZWJ emoji sequence
      "O'Brien-Smith",
      "مريم",
      "李小龙",
    ]) {
      expect(nameSchema.safeParse(name).success, name).toBe(true);
    }
  });

  it("refuse bidi overrides, isolates and marks that reorder the text", () => {
    for (const c of [
      "\u202E",
      "\u202D",
      "\u202A",
      "\u2066",
      "\u2067",
      "\u2068",
      "\u2069",
      "\u200F",
      "\u061C",
    ]) {
      expect(refused(`admin${c}nimda`), `U+${c.codePointAt(0)?.toString(16)}`).toMatch(/text-direction/);
    }
  });

  it("refuse names made only of invisible characters", () => {
    for (const name of [
      "\u200B",
      "\u200B\u200B\u200D",
      "\u200D",
      "\u200C\u200C",
      "\u2060",
      "\u00AD",
      "\u0301",
    ]) {
      expect(refused(name), JSON.stringify(name)).not.toBeNull();
    }
    expect(refused("\u200D\u200C")).toBe("Name must contain a visible letter, number or symbol");
  });

  it("refuse C0 and C1 controls, tag characters, separators and lone surrogates", () => {
    for (const name of [
      "a\u0000b",
      "a\u0085b", // NEL, a C1 control
      "a\u009Bb", // CSI, a C1 control
      "a\u0080b",
      "Ravi\u{E0041}\u{E0064}", // tag characters: hidden text
      "a\u2028b",
      "a\u2029b",
      "a\uD800b",
      "a\uFEFFb",
      "<script>",
    ]) {
      expect(refused(name), JSON.stringify(name)).toMatch(/control, invisible/);
    }
  });

  it("apply the same rule to sign-up and profile edits", () => {
    const signup = signupRequestSchema.safeParse({
      name: "\u202Egnp.exe",
      email: "a@example.com",
      password: "long-enough-1",
      confirmPassword: "long-enough-1",
    });
    expect(signup.success).toBe(false);
    expect(updateMeRequestSchema.safeParse({ name: "\u200B" }).success).toBe(false);
    expect(updateMeRequestSchema.safeParse({ name: "Meera" }).success).toBe(true);
  });

  it("normalise to NFC, so one name has one spelling", () => {
    expect(nameSchema.parse("Jose\u0301")).toBe("Jos\u00E9");
  });
});
