// The passkey API beside SimpleWebAuthn: each answer an authenticator (honest, faulty or hostile) could
// give is judged by @simplewebauthn/server's own verifiers, as a relying party of ours would configure
// them, and by our server (`POST /api/v1/wallets/passkey`). They must agree; where WebAuthn Level 3 asks
// more than the library checks (crossOrigin, topOrigin, the credential id bound to the answers), our
// server must refuse what the library lets through.
import {
  createSoftwarePasskey,
  type AnswerOptions,
  type SoftwarePasskey,
} from "@diginoor/contracts/software-passkey";
import { verifyAuthenticationResponse, verifyRegistrationResponse } from "@simplewebauthn/server";
import type { Check, Client } from "./client.ts";

interface Case {
  name: string;
  /** What WebAuthn Level 3 asks of a relying party: accept, or refuse. */
  accept: boolean;
  /** True where the library is known to let the answer through and Level 3 refuses it (we check more). */
  beyondLibrary?: boolean;
  challenge?: (nonce: string) => string;
  registration?: AnswerOptions;
  assertion?: AnswerOptions;
  passkey?: () => SoftwarePasskey;
}

export async function interopWebAuthnChecks(base: string, fan: Client): Promise<Check[]> {
  const origin = base;
  const rpId = new URL(base).hostname;
  const honest = () => createSoftwarePasskey({ origin, rpId });
  const cases: Case[] = [
    {
      name: "another origin",
      accept: false,
      registration: { origin: "https://evil.example" },
      assertion: { origin: "https://evil.example" },
    },
    {
      name: "another rpId",
      accept: false,
      registration: { rpId: "evil.example" },
      assertion: { rpId: "evil.example" },
    },
    { name: "a challenge that is not our nonce", accept: false, challenge: (n) => `${n}x` },
    {
      name: "user not verified (UP only)",
      accept: false,
      registration: { flags: 0x01 },
      assertion: { flags: 0x01 },
    },
    {
      name: "backed up but not backup-eligible (BS without BE)",
      accept: false,
      registration: { flags: 0x15 },
      assertion: { flags: 0x15 },
    },
    {
      name: "crossOrigin true",
      accept: false,
      beyondLibrary: true,
      registration: { crossOrigin: true },
      assertion: { crossOrigin: true },
    },
    {
      name: "a foreign topOrigin",
      accept: false,
      beyondLibrary: true,
      registration: { crossOrigin: true, topOrigin: "https://evil.example" },
      assertion: { crossOrigin: true, topOrigin: "https://evil.example" },
    },
    {
      name: "the assertion names another credential",
      accept: false,
      // The library verifies against the credential its caller looked up; binding the id is the caller's job.
      beyondLibrary: true,
      assertion: { credentialId: "AAAAAAAAAAAAAAAAAAAAAA" },
    },
    {
      name: "a synced passkey (BE and BS)",
      accept: true,
      passkey: () => createSoftwarePasskey({ origin, rpId, backupEligible: true, backedUp: true }),
    },
  ];

  const out: Check[] = [];
  const nonce = async () => {
    const res = await fan.req("POST", "/api/v1/wallets/nonce", {});
    if (res.status !== 201) throw new Error(`nonce: ${res.status} ${res.text}`);
    return res.json.nonce as string;
  };
  let lastAccepted: { body: unknown } | undefined;
  for (const c of cases) {
    const passkey = (c.passkey ?? honest)();
    const n = await nonce();
    const challenge = Buffer.from(c.challenge ? c.challenge(n) : n, "utf8");
    const body = {
      nonce: n,
      credentialId: passkey.id,
      registration: passkey.register(challenge, c.registration),
      assertion: passkey.authenticate(challenge, c.assertion),
    };
    // SimpleWebAuthn's verdict, configured as our relying party.
    const expectedChallenge = Buffer.from(n, "utf8").toString("base64url");
    let library = "accepts";
    try {
      const reg = await verifyRegistrationResponse({
        response: body.registration as never,
        expectedChallenge,
        expectedOrigin: origin,
        expectedRPID: rpId,
        requireUserVerification: true,
      });
      if (!reg.verified || !reg.registrationInfo) throw new Error("registration not verified");
      const auth = await verifyAuthenticationResponse({
        response: body.assertion as never,
        expectedChallenge,
        expectedOrigin: origin,
        expectedRPID: rpId,
        credential: reg.registrationInfo.credential,
        requireUserVerification: true,
      });
      if (!auth.verified) throw new Error("assertion not verified");
    } catch (err) {
      library = `refuses (${String((err as Error).message).slice(0, 60)})`;
    }
    const res = await fan.req("POST", "/api/v1/wallets/passkey", body);
    const ours =
      res.status === 201
        ? "accepts"
        : `refuses (${res.status} ${res.json?.error?.details?.reason ?? res.json?.error?.code ?? ""})`;
    if (res.status === 201) lastAccepted = { body };
    const libraryAgrees = library.startsWith(c.accept ? "accepts" : "refuses");
    const oursRight = ours.startsWith(c.accept ? "accepts" : "refuses");
    out.push({
      area: "SimpleWebAuthn",
      probe: c.name,
      expected: c.accept
        ? "both accept"
        : c.beyondLibrary
          ? "we refuse (Level 3; the library alone may let it through)"
          : "both refuse",
      observed: `SimpleWebAuthn ${library}; ours ${ours}`,
      ok: oursRight && (libraryAgrees || c.beyondLibrary === true),
    });
  }
  if (lastAccepted) {
    const res = await fan.req("POST", "/api/v1/wallets/passkey", lastAccepted.body);
    out.push({
      area: "SimpleWebAuthn",
      probe: "the accepted answers sent again (replay)",
      expected: "refused",
      observed: `${res.status} ${res.json?.error?.message ?? ""}`.trim(),
      ok: res.status >= 400 && res.status < 500,
    });
  }
  return out;
}
