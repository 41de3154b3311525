import type { RateLimiter } from "./lib/rate-limit.ts";
import type { Config } from "./config.ts";
import type { AccountsService } from "./modules/accounts/service.ts";
import type { Database, Db } from "./db/client.ts";
import type { Storage } from "./lib/storage/storage.ts";
import type { CatalogueService } from "./modules/catalogue/service.ts";
import type { ChainRuntime } from "./modules/chain/runtime.ts";
import type { Mailer } from "./modules/mail/mailer.ts";
import type { QuotesService } from "./modules/quotes/service.ts";
import type { TokenReads } from "./modules/indexer/service.ts";
import type { OrdersUnits } from "./modules/orders/service.ts";
import type { LotteryService } from "./modules/lottery/service.ts";
import type { NotificationsService } from "./modules/notifications/service.ts";
import type { SocialService } from "./modules/social/service.ts";
import type { SponsorshipService } from "./modules/wallets/sponsorship.ts";
import type { WalletDevicesService } from "./modules/wallets/devices.ts";
import type { WalletRecoveryService } from "./modules/wallets/recovery.ts";
import type { WalletsService } from "./modules/wallets/service.ts";
import type { Clock } from "./platform/clock.ts";
import type { Jobs } from "./platform/jobs/jobs.ts";
import type { PubSub } from "./platform/pubsub/pubsub.ts";
import type { ModuleWork } from "./platform/work.ts";
import type { AdminService } from "./modules/admin/service.ts";
import type { BlogService } from "./modules/blog/service.ts";
import type { ContactService } from "./modules/contact/service.ts";
import type { NewsletterService } from "./modules/newsletter/service.ts";
import type { PortabilityService } from "./modules/portability/service.ts";
import type { PrivacyService } from "./modules/privacy/service.ts";
import type { TaxService } from "./modules/tax/service.ts";
import type { KycService } from "./modules/kyc/service.ts";
import type { EarningsService } from "./modules/earnings/service.ts";

/** The services built once by bootstrap() and shared by routes, jobs and other services. */
export interface Services {
  /** Sign-up, sign-in, sessions, profiles, the console's account changes and other modules' account reads. */
  accounts: AccountsService;
  catalogue: CatalogueService;
  wallets: WalletsService;
  /** Recovery of passkey wallets whose every passkey is lost (decision 160). */
  walletRecovery: WalletRecoveryService;
  /** Passkeys of the fan's other devices on a passkey wallet (decision 171). */
  walletDevices: WalletDevicesService;
  /** Sponsorships of passkey wallets' operations for our verifying paymaster (decision 186). */
  sponsorship: SponsorshipService;
  quotes: QuotesService;
  /** The indexer's read side: tokens, listings, auctions, mints. */
  tokens: TokenReads;
  /** Orders, in units: lifecycle, wallet and hosted checkout, card fulfilment, primary auctions. */
  orders: OrdersUnits;
  notifications: NotificationsService;
  /** Lotteries: tickets, closing and the verifiable draw (decision 161). */
  lottery: LotteryService;
  /** Likes, follows, public profiles and showcases. */
  social: SocialService;
  /** The studio console: audited writes across the catalogue, blog, accounts, lotteries and orders. */
  admin: AdminService;
  /** Posts written here, plus a WordPress site's (its cache shared by the routes and the SEO pages). */
  blog: BlogService;
  contact: ContactService;
  newsletter: NewsletterService;
  /** Data rights (decision 170): the archive of a person's data and the erasure of their account. */
  privacy: PrivacyService;
  /** Tax records of Indian residents, TDS previews and yearly statements (decision 176). */
  tax: TaxService;
  /** The IPFS snapshot of every token and the exit to it (decision 173). */
  portability: PortabilityService;
  kyc: KycService;
  earnings: EarningsService;
}

/**
 * What bootstrap() (src/bootstrap.ts) builds once: the platform, the services and every module's
 * background work. Only the composition (bootstrap, app.ts, main.ts, CLIs, tests) sees it; each
 * module receives a plain interface of what it uses, never this.
 */
export interface AppContext {
  config: Config;
  database: Database;
  db: Db;
  /** The shared rate-limit counters, subjects hashed under the server's key (decision 188). */
  rateLimiter: RateLimiter;
  /** The chain and our contracts; absent when CHAIN_DISABLED=1 (tests of off-chain areas). */
  chain?: ChainRuntime;
  /** Time source (a test clock in tests). */
  clock: Clock;
  /** Durable jobs; modules register their definitions, the app starts them when ready. */
  jobs: Jobs;
  /** Messages between server processes. */
  pubsub: PubSub;
  /** Files served at /media/ (config.paths.media). */
  storage: Storage;
  /** Sends mail (SMTP, or the dev mailbox when SMTP_URL is not set). */
  mailer: Mailer;
  services: Services;
  /** Every module's jobs, subscriptions and loops, attached by role (startWork in bootstrap.ts). */
  work: ModuleWork[];
}
