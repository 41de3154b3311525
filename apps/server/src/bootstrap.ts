import { randomUUID } from "node:crypto";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { pino } from "pino";
// The composition root: everything a server process (or a CLI, benchmark or test) needs, built
// once from the configuration. main.ts, the CLIs, the benchmarks and the test harness all call it;
// buildApp() only wires HTTP to what it built.
import type { Config } from "./config.ts";
import type { AppContext } from "./context.ts";
import { type Database, openDatabase } from "./db/client.ts";
import { migrate } from "./db/migrate.ts";
import { createStorage } from "./modules/media/storage.ts";
import { limitHashing } from "./modules/accounts/password.ts";
import { type CatalogueService, createCatalogueService } from "./modules/catalogue/service.ts";
import { createSearchIndexSync } from "./modules/catalogue/index-sync.ts";
import { type ChainRuntime, startChain } from "./modules/chain/runtime.ts";
import { createMailer } from "./modules/mail/mailer.ts";
import { ratesProviderFromConfig } from "./modules/quotes/rates.ts";
import { createQuotesService, type QuotesService } from "./modules/quotes/service.ts";
import { createWalletsService, type WalletsService } from "./modules/wallets/service.ts";
import { createSponsorship } from "./modules/wallets/sponsorship.ts";
import { createWalletDevices } from "./modules/wallets/devices.ts";
import { createWalletRecovery } from "./modules/wallets/recovery.ts";
import { walletsWork } from "./modules/wallets/jobs.ts";
import { confirmationDepth, createTokenReads, type TokenReads } from "./modules/indexer/service.ts";
import { paymentProvidersFromConfig } from "./modules/orders/providers/index.ts";
import { createLotteryService, type LotteryService } from "./modules/lottery/service.ts";
import {
  createCardFulfilment,
  createEditionRegistry,
  createHostedCheckout,
  createResaleCheckout,
  createOrderLifecycle,
  createPrimaryAuctions,
  createWalletCheckout,
  type OrdersUnits,
  sandboxSecret,
} from "./modules/orders/service.ts";
import { type AccountsService, createAccountsService } from "./modules/accounts/service.ts";
import { createKeySender, createMarketView, createMinter, type Minter } from "./modules/chain/service.ts";
import { createPortabilityService } from "./modules/portability/service.ts";
import { portabilityWork } from "./modules/portability/jobs.ts";
import { createNotificationsService, unsubscribeKey } from "./modules/notifications/service.ts";
import { createSocialService } from "./modules/social/service.ts";
import { nativeSymbolOf } from "@diginoor/api/wallets";
import { defaultExplorerUrl } from "@diginoor/api/chain";
import { createAdminService, hiddenTokensReader } from "./modules/admin/service.ts";
import { adminWork } from "./modules/admin/jobs.ts";
import { accountsWork } from "./modules/accounts/jobs.ts";
import { createBlogService, createWordPressSource } from "./modules/blog/service.ts";
import { createContactService } from "./modules/contact/service.ts";
import { eventsWork } from "./modules/events/jobs.ts";
import { indexerWork } from "./modules/indexer/worker.ts";
import { lotteryWork } from "./modules/lottery/jobs.ts";
import { createNewsletterService } from "./modules/newsletter/service.ts";
import { notificationsWork } from "./modules/notifications/jobs.ts";
import { ordersWork } from "./modules/orders/jobs.ts";
import { privacyWork } from "./modules/privacy/jobs.ts";
import { createPrivacyService } from "./modules/privacy/service.ts";
import { taxWork } from "./modules/tax/jobs.ts";
import { createTaxService } from "./modules/tax/service.ts";
import { createKycService, type KycService } from "./modules/kyc/service.ts";
import { createEarningsService } from "./modules/earnings/service.ts";
import { type Role, startWork, type WorkLog } from "./platform/work.ts";
import type { Clock } from "./platform/clock.ts";
import type { Jobs } from "./platform/jobs/jobs.ts";
import type { PubSub } from "./platform/pubsub/pubsub.ts";
import { createPlatform } from "./platform/index.ts";
import { createRateLimiter, rateLimitKey } from "./lib/rate-limit.ts";

export interface BootstrapOptions {
  /**
   * An open, migrated database to use (the test harness's per-file database; it stays open on
   * close()). Without it the configured one is opened, migrated, and closed by close().
   */
  database?: Database;
  /**
   * The chain runtime to use (a test's own anvil), or null for none. Without it the configured
   * chain is started (none when CHAIN_DISABLED) and stopped by close().
   */
  chain?: ChainRuntime | null;
  /** Time source (tests pass a clock they move). */
  clock?: Clock;
  /** How often idle job workers poll (tests poll faster). */
  pollingIntervalSeconds?: number;
  /** Start-up messages (applied migrations, the local chain). */
  log?: (message: string) => void;
}

/** The application context, plus what starts the background work and stops everything. */
export interface Context extends AppContext {
  /** Migrations applied by this start (empty when the database was given). */
  appliedMigrations: string[];
  /**
   * Attaches every module's background work (`work`) as the role says: every role registers the
   * jobs and starts the queue (API processes enqueue), a worker (`all`, `worker`) runs them, keeps
   * the worker subscriptions, enqueues the start-up jobs and runs the indexer. Once per context;
   * close() stops it.
   */
  startWork(role: Role): Promise<void>;
  /** Stops the background work, jobs and pub/sub, and the chain and database if bootstrap() opened them. */
  close(): Promise<void>;
}

export async function bootstrap(config: Config, opts: BootstrapOptions = {}): Promise<Context> {
  const log = opts.log ?? (() => {});
  // argon2 shares libuv's pool with file reads: bound it before anything hashes (decision 062).
  limitHashing(config.HASH_CONCURRENCY);
  const ownDatabase = !opts.database;
  const database =
    opts.database ?? (await openDatabase({ url: config.DATABASE_URL, dataDir: config.paths.pglite }));
  let chain: ChainRuntime | undefined;
  let appliedMigrations: string[] = [];
  try {
    if (ownDatabase) appliedMigrations = await migrate(database);
    chain = opts.chain === undefined ? await startChain(config, database.db, log) : (opts.chain ?? undefined);
  } catch (err) {
    if (ownDatabase) await database.close();
    throw err;
  }
  const ownChain = opts.chain === undefined;
  const platform = createPlatform(config, database, {
    clock: opts.clock,
    pollingIntervalSeconds: opts.pollingIntervalSeconds,
  });
  const { clock } = platform;
  const test = config.NODE_ENV === "test";
  // The catalogue list's in-memory search index, kept in step through the change log (decision 023).
  const searchIndex = config.CATALOGUE_SEARCH_INDEX
    ? createSearchIndexSync({ database, pubsub: platform.pubsub, catchUpOnRead: test })
    : undefined;
  try {
    await searchIndex?.start();
  } catch (err) {
    await platform.stop();
    if (ownChain) await chain?.stop();
    if (ownDatabase) await database.close();
    throw err;
  }
  const storage = createStorage(config, database);
  const { pubsub, jobs } = platform;
  // Rate-limit subjects are hashed under the server's key (decision 188): no email in clear.
  const rateLimiter = createRateLimiter(database.db, rateLimitKey(config));
  const accounts = createAccountsService({ config, database, rateLimiter, jobs, clock, storage, pubsub });
  const catalogue = createCatalogueService(database, {
    cacheTtlMs: test ? 0 : 10_000,
    listCacheTtlMs: test ? 0 : config.CATALOGUE_LIST_CACHE_MS,
    clock,
    searchIndex,
  });
  const wallets = createWalletsService({
    database,
    clock,
    publicUrl: config.PUBLIC_URL,
    chain: chain && {
      chainId: chain.chainId,
      publicClient: chain.publicClient,
      accountFactory: chain.wallets?.accountFactory,
    },
    // A lottery prize waiting for its winner's wallet is minted as soon as one is linked.
    onLinked: (userId) => orders.fulfilment.resumePrizes(userId),
    // A passkey wallet owning a token cannot be unlinked (issue 35 item 2); the indexer's read side.
    tokensOwned: async (address) => (await tokens.accountTokens(address)).items.length,
  });
  const quotes = createQuotesService({
    database,
    clock,
    rates: ratesProviderFromConfig(config),
    catalogue,
    chainId: chain?.chainId,
    ttlSeconds: config.QUOTE_TTL_SECONDS,
  });
  const tokens = createTokenReads({
    database,
    chainId: chain?.chainId,
    catalogue,
    publicUrl: config.PUBLIC_URL,
    hidden: hiddenTokensReader(database.db),
  });
  const symbol = chain ? nativeSymbolOf(chain.chainId) : "ETH";
  const notifications = createNotificationsService({
    database,
    clock,
    pubsub: platform.pubsub,
    tokens,
    wallets,
    chainId: chain?.chainId,
    symbol,
    jobs: platform.jobs,
    publicUrl: config.PUBLIC_URL,
    unsubscribeKey: unsubscribeKey(config),
  });
  const kycLog = pino({ level: config.LOG_LEVEL, name: "kyc" });
  // Identity verification (decision 175): the sandbox provider outside production (it shares the
  // sandbox's webhook secret), required before payouts and above the yearly rupee limit.
  const kyc = createKycService({
    database,
    clock,
    publicUrl: config.PUBLIC_URL,
    sandbox: config.NODE_ENV === "production" ? undefined : { secret: sandboxSecret(config) },
    inrYearlyLimitPaise: config.KYC_INR_YEARLY_LIMIT_PAISE,
    log: (level, msg, extra) => kycLog[level](extra ?? {}, msg),
  });
  const lotteryLog = pino({ level: config.LOG_LEVEL, name: "lottery" });
  const lottery = createLotteryService({
    database,
    clock,
    pubsub: platform.pubsub,
    chain,
    catalogue,
    regions:
      config.LOTTERY_REGIONS === "all" ||
      (config.LOTTERY_REGIONS === undefined && config.NODE_ENV !== "production")
        ? { all: true }
        : { all: false, allowed: config.LOTTERY_REGIONS ?? [] },
    drawBlocks: config.LOTTERY_DRAW_BLOCKS,
    jobs: platform.jobs,
    kyc,
    // NFT prizes are minted by the orders module's fulfilment (it owns editions and the minter's sends).
    prizes: {
      grant: (tx, p) => orders.fulfilment.grantPrize(tx, p),
      statusOf: (source) => orders.fulfilment.prizeOf(source),
    },
    revealTimeoutMs: config.LOTTERY_REVEAL_TIMEOUT_SECONDS * 1000,
    // Ticket orders are orders: a lottery without a draw refunds them through the orders module.
    onRefundAll: (tx, lotteryId, orderIds, cause) =>
      orders.hostedCheckout.refundTicketOrders(tx, lotteryId, orderIds, cause),
    log: (level, msg, extra) => lotteryLog[level](extra ?? {}, msg),
  });
  // One sender per key: the minter's sends are nonce-ordered, and the admin key (the deployer's) is the
  // minter's too on a development chain, so the exit to IPFS then sends through the same queue.
  const minter = createMinter(chain);
  const orders = await buildOrders(config, {
    minter,
    database,
    clock,
    pubsub: platform.pubsub,
    jobs: platform.jobs,
    chain,
    catalogue,
    quotes,
    wallets,
    tokens,
    lottery,
    kyc,
    accounts,
  });
  const mailer = createMailer(config, database.db);
  const walletsLog = pino({ level: config.LOG_LEVEL, name: "wallets" });
  const walletRecovery = createWalletRecovery({
    database,
    clock,
    publicUrl: config.PUBLIC_URL,
    chain: chain && { publicClient: chain.publicClient, accountFactory: chain.wallets?.accountFactory },
    relayer: createKeySender(chain, chain?.recoveryRelayer),
    relaysPerMonth: config.RECOVERY_RELAYS_PER_MONTH,
    wallets,
    mailer,
    notifications,
    accounts,
    log: (level, msg, extra) => walletsLog[level](extra ?? {}, msg),
  });
  const walletDevices = createWalletDevices({
    database,
    clock,
    chain: chain && { publicClient: chain.publicClient, accountFactory: chain.wallets?.accountFactory },
    wallets,
  });
  const sponsorship = createSponsorship({
    database,
    clock,
    chain: chain && {
      chainId: chain.chainId,
      publicClient: chain.publicClient,
      // Read when used, like the bundler's URL below.
      get collectible() {
        return chain.deployment.collectible;
      },
      entryPoint: chain.wallets?.entryPoint,
      paymaster: chain.wallets?.paymaster,
      // Read when used, as the bundler proxy reads it.
      get bundlerUrl() {
        return chain.wallets?.bundlerUrl;
      },
      sponsor: chain.sponsor,
    },
    budget: {
      fanDailyOps: config.SPONSOR_FAN_DAILY_OPS,
      fanDailyWei: config.SPONSOR_FAN_DAILY_WEI,
      globalDailyWei: config.SPONSOR_GLOBAL_DAILY_WEI,
    },
  });
  const contact = createContactService(database.db);
  const newsletter = createNewsletterService(database.db);
  const blogLog = pino({ level: config.LOG_LEVEL, name: "blog" });
  const blog = createBlogService(database.db, {
    clock,
    wordpress: config.WORDPRESS_URL
      ? createWordPressSource({
          baseUrl: config.WORDPRESS_URL,
          clock,
          timeoutMs: config.WORDPRESS_TIMEOUT_MS,
          log: blogLog,
        })
      : undefined,
  });
  // Names this process in its catalogue messages (the console's cache invalidation).
  const processId = randomUUID();
  const workLogger = pino({ level: test ? "silent" : config.LOG_LEVEL, name: "work" });
  const workLog: WorkLog = (level, obj, msg) => workLogger[level](obj, msg);
  const earnings = createEarningsService({
    database,
    clock,
    chain: chain?.minter ? { chainId: chain.chainId, minterAddress: chain.minter.address } : undefined,
    kyc,
    accounts,
  });
  const privacy = createPrivacyService({
    config,
    database,
    jobs,
    clock,
    storage,
    pubsub,
    accounts,
    rateLimiter,
  });
  const tax = createTaxService({
    database,
    clock,
    rules: config.TDS_RULES,
    quotes,
    wallets,
    tokens,
    orders: orders.lifecycle,
    catalogue,
  });
  const social = createSocialService({
    database,
    clock,
    accounts,
    catalogue,
    tokens,
    wallets,
    notifications,
    chainId: chain?.chainId,
    symbol,
  });
  const portability = createPortabilityService({
    tokens,
    storage,
    jobs,
    publicUrl: config.PUBLIC_URL,
    // The built web app, where app.ts serves it from (the collection's image in the IPFS snapshot).
    webFile: async (name) => {
      const dir = config.WEB_DIST_DIR ?? fileURLToPath(new URL("../../web/dist/", import.meta.url));
      try {
        return new Uint8Array(await readFile(path.join(dir, name)));
      } catch {
        return null;
      }
    },
    holders: social,
    // A chain runtime without a deployment (tests that give a chain id only) has nothing to exit.
    chain: chain?.deployment && {
      chainId: chain.chainId,
      explorerUrl: config.CHAIN_EXPLORER_URL ?? defaultExplorerUrl(chain.chainId),
      publicClient: chain.publicClient,
      collectible: chain.deployment.collectible,
      admin:
        chain.admin && minter && chain.admin.address === minter.account.address
          ? minter
          : createKeySender(chain, chain.admin),
      // The ERC-4906 refreshes of console edits: the minter key (MINTER_ROLE), through its nonce-ordered queue.
      refresher: minter,
    },
  });
  const work = [
    accountsWork(accounts, { database, mailer }, (counts) =>
      workLog("info", { counts }, "pruned accounts data"),
    ),
    ordersWork(orders, {
      database,
      mailer,
      publicUrl: config.PUBLIC_URL,
      notifications,
      accounts,
      chain: !!chain,
      providerTimeoutMs: config.PAYMENT_PROVIDER_TIMEOUT_MS,
      log: (o, msg) => workLog("info", o, msg),
    }),
    notificationsWork(notifications, { database, mailer, accounts, chain: !!chain }),
    lotteryWork(lottery, {
      database,
      mailer,
      publicUrl: config.PUBLIC_URL,
      notifications,
      accounts,
      rates: quotes,
      log: (o) => workLog("info", o, "lotteries"),
    }),
    eventsWork({ database, clock }),
    adminWork(catalogue, processId),
    portabilityWork(portability, (o, msg) => workLog("info", o, msg)),
    indexerWork({ config, chain, database, pubsub, log: workLog }),
    walletsWork(walletRecovery, (counts) => workLog("info", { counts }, "wallet recoveries")),
    privacyWork(privacy, { database, clock }, mailer, (counts) =>
      workLog("info", { counts }, "pruned data requests"),
    ),
    taxWork(tax, { chain: !!chain, log: (made) => workLog("info", { made }, "tax records") }),
  ];
  let running: { stop(): Promise<void> } | undefined;
  return {
    config,
    database,
    db: database.db,
    rateLimiter,
    chain,
    clock,
    jobs,
    pubsub,
    storage,
    mailer,
    services: {
      accounts,
      catalogue,
      wallets,
      walletRecovery,
      walletDevices,
      sponsorship,
      quotes,
      tokens,
      notifications,
      lottery,
      social,
      orders,
      admin: createAdminService({
        database,
        pubsub,
        storage,
        processId,
        catalogue,
        lottery,
        orders,
        contact,
        newsletter,
        portability,
        earnings,
        accounts,
      }),
      blog,
      contact,
      newsletter,
      privacy,
      tax,
      portability,
      kyc,
      earnings,
    },
    work,
    appliedMigrations,
    async startWork(role) {
      if (running) throw new Error("startWork: the work is running already");
      running = await startWork(platform, work, { role, log: workLog });
    },
    async close() {
      await running?.stop();
      await searchIndex?.stop();
      await platform.stop();
      if (ownChain) await chain?.stop();
      if (ownDatabase) await database.close();
    },
  };
}

/** The orders module's units, each given exactly what it uses. */
async function buildOrders(
  config: Config,
  d: {
    database: Database;
    clock: Clock;
    pubsub: PubSub;
    jobs: Jobs;
    chain: ChainRuntime | undefined;
    catalogue: CatalogueService;
    quotes: QuotesService;
    wallets: WalletsService;
    tokens: TokenReads;
    lottery: LotteryService;
    minter: Minter | undefined;
    kyc: KycService;
    accounts: Pick<AccountsService, "checkoutContact">;
  },
): Promise<OrdersUnits> {
  const ordersLog = pino({ level: config.LOG_LEVEL, name: "orders" });
  const log = (level: "info" | "warn" | "error", msg: string, extra?: object) =>
    ordersLog[level](extra ?? {}, msg);
  const { database, clock, chain, catalogue, jobs } = d;
  const { minter } = d;
  const buyer = createKeySender(chain, chain?.buyer);
  const market = createMarketView(chain, clock);
  const lifecycle = createOrderLifecycle({
    database,
    clock,
    pubsub: d.pubsub,
    catalogue,
    tokens: d.tokens,
    lottery: d.lottery,
    chain,
    confirmations: chain ? confirmationDepth(config.INDEXER_CONFIRMATIONS, chain.chainId) : 1,
    jobs,
    publicUrl: config.PUBLIC_URL,
    fulfilmentRetryMs: config.ORDER_FULFILMENT_RETRY_SECONDS * 1000,
    unpaidHolds: { perAccount: config.UNPAID_HOLDS_PER_ACCOUNT, perWallet: config.UNPAID_HOLDS_PER_WALLET },
    log,
  });
  const hostedCheckout = createHostedCheckout({
    database,
    clock,
    catalogue,
    quotes: d.quotes,
    wallets: d.wallets,
    contactOf: (userId) => d.accounts.checkoutContact(userId),
    chain,
    lifecycle,
    lottery: d.lottery,
    jobs,
    publicUrl: config.PUBLIC_URL,
    sandbox:
      config.NODE_ENV === "production"
        ? undefined
        : { secret: sandboxSecret(config), timeoutMs: config.PAYMENT_PROVIDER_TIMEOUT_MS },
    providers: await paymentProvidersFromConfig(config),
    inrLimit: { kyc: d.kyc, limitPaise: config.KYC_INR_YEARLY_LIMIT_PAISE },
    cashfreeMode: config.CASHFREE_ENV,
    log,
  });
  const editions = createEditionRegistry({ chain, minter, catalogue, jobs, log });
  const resale = createResaleCheckout({
    database,
    clock,
    chain,
    buyer,
    tokens: d.tokens,
    wallets: d.wallets,
    quotes: d.quotes,
    lifecycle,
    hostedCheckout,
    log,
  });
  return {
    lifecycle,
    walletCheckout: createWalletCheckout({
      database,
      clock,
      quotes: d.quotes,
      wallets: d.wallets,
      chain,
      minter,
      catalogue,
      editions,
      market,
      lifecycle,
      log,
    }),
    hostedCheckout,
    editions,
    resale,
    fulfilment: createCardFulfilment({
      database,
      clock,
      catalogue,
      chain,
      minter,
      lifecycle,
      jobs,
      wallets: d.wallets,
      log,
      resale,
      editions,
      refunds: hostedCheckout,
    }),
    auctions: createPrimaryAuctions({
      database,
      clock,
      catalogue,
      quotes: d.quotes,
      tokens: d.tokens,
      chain,
      minter,
      market,
      editions,
      log,
    }),
  };
}
