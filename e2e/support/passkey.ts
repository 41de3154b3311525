import type { Page } from "@playwright/test";

/**
 * Chromium's virtual WebAuthn authenticator (DevTools protocol) as a phone's or laptop's built-in one:
 * resident keys, user verification (the fingerprint) always succeeding, presence given at once.
 */
export async function addPlatformAuthenticator(page: Page) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("WebAuthn.enable");
  const { authenticatorId } = await cdp.send("WebAuthn.addVirtualAuthenticator", {
    options: {
      protocol: "ctap2",
      transport: "internal",
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
  return { cdp, authenticatorId };
}
