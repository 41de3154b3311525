import { paymasterEndpoints } from "@diginoor/api/chain";
import { walletEndpoints as api } from "@diginoor/api/wallets";
import type { FastifyInstance } from "fastify";
import { route } from "../../http/route.ts";
import type { RateLimitRule } from "../../lib/rate-limit.ts";
import type { WalletDevicesService } from "./devices.ts";
import type { WalletRecoveryService } from "./recovery.ts";
import type { WalletsService } from "./service.ts";
import type { SponsorshipService } from "./sponsorship.ts";

const NONCES_PER_USER: RateLimitRule = { name: "wallet-nonce:user", limit: 30, windowSeconds: 600 };
const LINKS_PER_USER: RateLimitRule = { name: "wallet-link:user", limit: 30, windowSeconds: 600 };
/** Recovery links are mail: a few an hour per fan. */
const RECOVERY_LINKS_PER_USER: RateLimitRule = {
  name: "wallet-recovery:user",
  limit: 5,
  windowSeconds: 3600,
};

/** A sponsorship per operation the fan's wallet sends, with room for retries. */
const SPONSORSHIPS_PER_USER: RateLimitRule = { name: "paymaster:user", limit: 120, windowSeconds: 600 };

const userId = (u: { id: string } | null) => (u as { id: string }).id;

/** /api/v1/wallets: link (SIWE), list, choose the receiving wallet, unlink. Signed-in users only. */
export function registerWalletRoutes(
  app: FastifyInstance,
  service: WalletsService,
  recovery: WalletRecoveryService,
  devices: WalletDevicesService,
  sponsorship: SponsorshipService,
): void {
  route(app, paymasterEndpoints.sponsorUserOperation, {
    permission: "signed-in",
    rateLimits: [{ rule: SPONSORSHIPS_PER_USER, by: "user" }],
    handler: ({ user, body }) => sponsorship.sponsor(userId(user), body),
  });
  route(app, api.requestWalletPasskey, {
    permission: "signed-in",
    rateLimits: [{ rule: LINKS_PER_USER, by: "user" }],
    handler: ({ user, params, body }) => devices.request(userId(user), params.address, body),
  });
  route(app, api.listWalletPasskeyRequests, {
    permission: "signed-in",
    handler: async ({ user, params }) => ({ items: await devices.list(userId(user), params.address) }),
  });
  route(app, api.confirmWalletPasskey, {
    permission: "signed-in",
    rateLimits: [{ rule: LINKS_PER_USER, by: "user" }],
    handler: ({ user, params }) => devices.confirmAdded(userId(user), params.address, params.id),
  });
  route(app, api.removedWalletPasskey, {
    permission: "signed-in",
    rateLimits: [{ rule: LINKS_PER_USER, by: "user" }],
    handler: async ({ user, params }) => {
      await devices.confirmRemoved(userId(user), params.address, params.credentialId);
      return undefined;
    },
  });
  route(app, api.declineWalletPasskey, {
    permission: "signed-in",
    handler: async ({ user, params }) => {
      await devices.decline(userId(user), params.address, params.id);
      return undefined;
    },
  });
  route(app, api.startWalletRecovery, {
    permission: "signed-in",
    rateLimits: [{ rule: RECOVERY_LINKS_PER_USER, by: "user" }],
    handler: ({ user, body }) => recovery.start(userId(user), body.address),
  });
  route(app, api.confirmWalletRecovery, {
    permission: "signed-in",
    rateLimits: [{ rule: LINKS_PER_USER, by: "user" }],
    handler: ({ user, body }) => recovery.confirm(userId(user), body),
  });
  route(app, api.listWalletRecoveries, {
    permission: "signed-in",
    handler: async ({ user }) => ({ items: await recovery.list(userId(user)) }),
  });
  route(app, api.createWalletNonce, {
    permission: "signed-in",
    rateLimits: [{ rule: NONCES_PER_USER, by: "user" }],
    handler: ({ user }) => service.issueNonce(userId(user)),
  });
  route(app, api.linkWallet, {
    permission: "signed-in",
    rateLimits: [{ rule: LINKS_PER_USER, by: "user" }],
    handler: ({ user, body }) => service.link(userId(user), body),
  });
  route(app, api.linkPasskeyWallet, {
    permission: "signed-in",
    rateLimits: [{ rule: LINKS_PER_USER, by: "user" }],
    handler: ({ user, body }) => service.linkPasskey(userId(user), body),
  });
  route(app, api.listWallets, {
    permission: "signed-in",
    handler: async ({ user }) => ({ items: await service.list(userId(user)) }),
  });
  route(app, api.updateWallet, {
    permission: "signed-in",
    handler: ({ user, params }) => service.makeReceiving(userId(user), params.address),
  });
  route(app, api.unlinkWallet, {
    permission: "signed-in",
    handler: async ({ user, params }) => {
      await service.unlink(userId(user), params.address);
      return undefined;
    },
  });
}
