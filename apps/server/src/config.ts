import os from "node:os";
import path from "node:path";
import { type Address, getAddress, isAddress } from "viem";
import { z } from "zod";

const optionalSecret = z
  .string()
  .trim()
  .transform((v) => (v === "" ? undefined : v))
  .optional();

const hexKey = z
  .string()
  .regex(/^0x[0-9a-fA-F]{64}$/, "must be a 0x-prefixed 32-byte hex private key")
  .optional()
  .or(z.literal("").transform(() => undefined));

const urlWithProtocol = (protocols: string[]) =>
  z
    .string()
    .url("must be a URL")
    .refine(
      (u) => protocols.some((p) => u.startsWith(`${p}:`)),
      `must start with ${protocols.join(": or ")}:`,
    );

const evmAddress = z
  .string()
  .refine(isAddress, "must be an address")
  .transform((a) => getAddress(a) as Address);

/** The JSON line printed by `npm run deploy -w packages/contracts`, given to the server as CHAIN_DEPLOYMENT. */
const deploymentJson = z
  .string()
  .transform((text, ctx) => {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      ctx.addIssue({ code: "custom", message: "must be the JSON line printed by the deploy script" });
      return z.NEVER;
    }
  })
  .pipe(
    z
      .object({
        chainId: z.number().int().positive(),
        collectible: evmAddress,
        marketplace: evmAddress,
        deployer: evmAddress,
        admin: evmAddress.optional(),
        minter: evmAddress,
        signer: evmAddress.optional(),
        treasury: evmAddress,
        /** Passkey wallets (decision 160), from `npm run deploy -- --wallets`; absent on older lines. */
        accountFactory: evmAddress.optional(),
        paymaster: evmAddress.optional(),
        blockNumber: z
          .union([z.string().regex(/^\d+$/), z.number().int().nonnegative()])
          .transform((b) => BigInt(b)),
      })
      // Lines printed before the keys were separated: the deployer was admin, the minter also signed.
      .transform((d) => ({ ...d, admin: d.admin ?? d.deployer, signer: d.signer ?? d.minter })),
  );

const optionalUrl = z
  .string()
  .trim()
  .optional()
  .transform((v) => (v === "" ? undefined : v))
  .pipe(urlWithProtocol(["http", "https"]).optional());

const boolFlag = z
  .enum(["0", "1", "true", "false", ""])
  .optional()
  .transform((v) => v === "1" || v === "true");

/** Every environment variable the server reads. Names are shared with docs and tests (see .env.example). */
export const envSchema = z
  .object({
    NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
    PORT: z.coerce.number().int("must be an integer").min(0).max(65535).default(3000),
    HOST: z.string().default("0.0.0.0"),
    DATA_DIR: z.string().min(1).default("./.data"),
    DATABASE_URL: z
      .string()
      .optional()
      .transform((v) => (v === "" ? undefined : v))
      .pipe(urlWithProtocol(["postgres", "postgresql"]).optional()),
    PUBLIC_URL: urlWithProtocol(["http", "https"]).optional(),
    SESSION_SECRET: z.string().min(32, "must be at least 32 characters").optional(),
    /**
     * Which proxies to believe about the client address (X-Forwarded-For): off by default, or a
     * comma-separated list of the load balancers' addresses/CIDRs (`loopback`, `10.0.0.0/8`, ...).
     * "true" believes any sender: only for benchmarks, since clients could then pick their address.
     */
    TRUST_PROXY: z
      .string()
      .trim()
      .optional()
      .refine(
        (v) => !v || !/^\d+$/.test(v),
        "must list proxy addresses or CIDRs (hop counts are not supported)",
      )
      .transform((v): boolean | string[] => {
        if (!v || v === "false") return false;
        if (v === "true") return true;
        return v
          .split(",")
          .map((x) => x.trim())
          .filter(Boolean);
      }),
    LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
    /**
     * EVM JSON-RPC endpoint(s), comma-separated: with several, each request goes to the first one
     * that answers (viem's fallback transport), so losing one changes nothing users see.
     */
    CHAIN_RPC_URL: z
      .string()
      .transform((v) =>
        v
          .split(",")
          .map((u) => u.trim())
          .filter(Boolean),
      )
      .pipe(z.array(urlWithProtocol(["http", "https"])).min(1, "must name at least one URL"))
      .optional(),
    CHAIN_ID: z.coerce.number().int().positive().optional(),
    /**
     * Block explorer of the chain (Etherscan-style: /address/, /tx/, /nft/<contract>/<id>) for the token
     * page's "Where it lives"; Polygon and Amoy have defaults (polygonscan), the local chain none.
     */
    CHAIN_EXPLORER_URL: urlWithProtocol(["http", "https"])
      .transform((u) => u.replace(/\/+$/, ""))
      .optional(),
    /** Set to 1 to run without any chain (tests of areas that do not need one). */
    CHAIN_DISABLED: boolFlag,
    /** Our contracts on CHAIN_RPC_URL: the JSON line `npm run deploy -w packages/contracts` prints. */
    CHAIN_DEPLOYMENT: deploymentJson.optional(),
    DEPLOYER_PRIVATE_KEY: hexKey,
    MINTER_PRIVATE_KEY: hexKey,
    /**
     * Buys resale listings for card and rupee orders and sends the token to the fan (issue 27): a hot
     * key holding only the native token it spends, apart from the minter. On a local anvil a fixed
     * development key, funded at start.
     */
    RESALE_BUYER_PRIVATE_KEY: hexKey,
    /** Signs purchase vouchers (SIGNER_ROLE); keep it apart from the minter key. */
    VOUCHER_SIGNER_PRIVATE_KEY: hexKey,
    /**
     * ERC-4337 bundler for passkey wallets (decision 160), e.g. a hosted one; the web app reaches it through
     * /api/v1/bundler, so the URL (and any key in it) stays on the server. Unset with the local chain: the
     * server starts Alto beside anvil.
     */
    BUNDLER_URL: urlWithProtocol(["http", "https"]).optional(),
    /**
     * Least stake (wei of the chain's native token) the paymaster must have locked in the EntryPoint, with an
     * unstake delay of at least a day, for the server to start on a chain that is not a development chain
     * (ERC-7562; decision 181). Default 10^18 (1 token), the least Alto counts as staked; set the bundler's own.
     */
    PAYMASTER_MIN_STAKE_WEI: z
      .string()
      .regex(/^\d+$/, "must be a whole number of wei")
      .default("1000000000000000000")
      .transform((v) => BigInt(v)),
    /**
     * The recovery relayer's key (decision 185): pays the gas of a fan's recovery, sending on chain the
     * proposal the fan's own guardian signed (their recovery code's key, in their browser) and completing
     * it 7 days later. It is no account's guardian and can change nothing by itself. On the local chain
     * anvil's 7th dev account; without it, the fan sends the proposal to the chain themselves.
     */
    RECOVERY_RELAYER_PRIVATE_KEY: hexKey,
    /** Most recoveries the relayer pays for per wallet and calendar month (each a proposal and a completion). */
    RECOVERY_RELAYS_PER_MONTH: z.coerce.number().int().min(0).max(100).default(3),
    /**
     * Signs sponsorships of passkey wallets' operations for our verifying paymaster (decision 186): the
     * paymaster pays only for operations it signed, and the server signs only after its checks. It can
     * move no token and holds no money. On the local chain anvil's 10th dev account.
     */
    SPONSOR_SIGNER_PRIVATE_KEY: hexKey,
    /** Sponsored operations a fan gets per UTC day (decision 186). */
    SPONSOR_FAN_DAILY_OPS: z.coerce.number().int().min(0).max(10_000).default(30),
    /** Most gas money (wei, at each operation's maximum cost) sponsored for one fan per UTC day. */
    SPONSOR_FAN_DAILY_WEI: z.coerce.bigint().min(0n).default(100_000_000_000_000_000n),
    /** Most gas money (wei, at each operation's maximum cost) sponsored for all fans together per UTC day. */
    SPONSOR_GLOBAL_DAILY_WEI: z.coerce.bigint().min(0n).default(5_000_000_000_000_000_000n),
    /** Required when NODE_ENV=production: mail carries sign-in links, so it must really be sent. */
    SMTP_URL: urlWithProtocol(["smtp", "smtps"]).optional(),
    /**
     * The dev mailbox (/dev/mailbox) shows every stored mail with its links, so it hands out accounts.
     * `auto` (default): on only outside production with a loopback PUBLIC_URL, and only for loopback
     * clients; `true`: on for every client (never allowed in production); `false`: off.
     */
    DEV_MAILBOX: z
      .enum(["auto", "true", "false", "1", "0", ""])
      .default("auto")
      .transform((v) => (v === "true" || v === "1" ? "on" : v === "false" || v === "0" ? "off" : "auto")),
    MAIL_FROM: z.string().default("Diginoor <no-reply@diginoor.local>"),
    /**
     * Seconds before a mail job retries a failed delivery (the SMTP server down or refusing); each
     * further retry waits about twice as long (with jitter), six retries in all.
     */
    MAIL_RETRY_SECONDS: z.coerce.number().int().min(1).max(3600).default(15),
    /** Stripe (card, INR or USD by STRIPE_CURRENCY; decision 142): offered when both the secret key and the webhook secret are set. */
    STRIPE_SECRET_KEY: optionalSecret,
    STRIPE_WEBHOOK_SECRET: optionalSecret,
    /**
     * What Stripe Checkout charges in: `inr` (an Indian Stripe account charging Indian cards in rupees,
     * at the stored USD→INR rate) or `usd`. The checkout says which before the fan pays.
     */
    STRIPE_CURRENCY: z.enum(["inr", "usd"]).default("inr"),
    /** Stripe's API host (default https://api.stripe.com); tests point it at a local server. */
    STRIPE_API_BASE: optionalUrl,
    /** Cashfree (INR: UPI, cards, net banking): the app id and secret key of the merchant dashboard. */
    CASHFREE_CLIENT_ID: optionalSecret,
    CASHFREE_CLIENT_SECRET: optionalSecret,
    CASHFREE_ENV: z.enum(["sandbox", "production"]).default("sandbox"),
    /** Cashfree's API host (default by CASHFREE_ENV: sandbox.cashfree.com or api.cashfree.com). */
    CASHFREE_API_BASE: optionalUrl,
    /**
     * Rupee purchases (paise) a user may make in a financial year (April to March, India time) before
     * a further rupee purchase needs verified KYC (decision 175). Default ₹50,000.
     */
    KYC_INR_YEARLY_LIMIT_PAISE: z.coerce.bigint().min(0n).default(5_000_000n),
    /** Milliseconds a payment provider's API may take to answer before the call counts as failed. */
    PAYMENT_PROVIDER_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(10_000),
    /**
     * A fiat-to-crypto on-ramp widget, offered as 'Buy crypto' on the checkout: a URL template whose
     * `{address}` and `{amount}` (USD) are filled in with the buyer's linked wallet and the price.
     */
    ONRAMP_URL: optionalUrl,
    GOOGLE_CLIENT_ID: optionalSecret,
    GOOGLE_CLIENT_SECRET: optionalSecret,
    /** OIDC issuer for Google sign-in; tests point it at a local provider. */
    GOOGLE_ISSUER_URL: urlWithProtocol(["http", "https"]).default("https://accounts.google.com"),
    /** Public WalletConnect (Reown) project id; the wallet page offers WalletConnect only when set. */
    WALLETCONNECT_PROJECT_ID: optionalSecret,
    /** Where exchange rates come from: `table`, the RATES_TABLE below (the only provider so far). */
    RATES_PROVIDER: z.enum(["table"]).default("table"),
    /**
     * The rates table: USD per native token (ETH, POL) and INR per USD, as `SYMBOL=decimal` pairs
     * separated by commas, at most 6 decimals (e.g. `ETH=3000,POL=0.25,INR=84.5`). Read exactly (no floats).
     */
    RATES_TABLE: z
      .string()
      .default("ETH=3000,POL=0.25,INR=84.5")
      .transform((text, ctx) => {
        const out: Record<string, bigint> = {};
        for (const part of text
          .split(",")
          .map((p) => p.trim())
          .filter(Boolean)) {
          const match = /^([A-Z]{2,10})=(\d{1,12})(?:\.(\d{1,6}))?$/.exec(part);
          if (!match) {
            ctx.addIssue({
              code: "custom",
              message: `"${part}" must be SYMBOL=decimal with at most 6 decimals`,
            });
            return z.NEVER;
          }
          const [, symbol, whole, frac = ""] = match as unknown as [string, string, string, string?];
          const micros = BigInt(whole) * 1_000_000n + BigInt(frac.padEnd(6, "0"));
          if (micros === 0n) {
            ctx.addIssue({ code: "custom", message: `${symbol} must not be 0` });
            return z.NEVER;
          }
          out[symbol] = micros;
        }
        for (const needed of ["ETH", "POL", "INR"]) {
          if (!(needed in out)) {
            ctx.addIssue({
              code: "custom",
              message: `must give ${needed} (e.g. ETH=3000,POL=0.25,INR=84.5)`,
            });
            return z.NEVER;
          }
        }
        return out;
      }),
    /** Seconds a price quote in the native token holds (an expired quote is refused, never repriced). */
    QUOTE_TTL_SECONDS: z.coerce.number().int().min(30).max(3600).default(300),
    /**
     * s.194S TDS rules by financial year (decision 176): `FY:rate%:specified:others` entries separated
     * by commas, each in force from its financial year (April–March) until the next entry's; the
     * thresholds are whole rupees of a seller's sales in the year (specified persons, everyone else).
     * Before the first entry there is no TDS. Default: 1%, ₹50,000 / ₹10,000 from 2022-23.
     */
    TDS_RULES: z
      .string()
      .default("2022-23:1%:50000:10000")
      .transform((text, ctx) => {
        const rules: { fromYear: number; rateBps: number; specifiedPaise: bigint; otherPaise: bigint }[] = [];
        for (const part of text
          .split(",")
          .map((p) => p.trim())
          .filter(Boolean)) {
          const m = /^(20\d\d)-(\d\d):(\d{1,2})(?:\.(\d{1,2}))?%:(\d{1,12}):(\d{1,12})$/.exec(part);
          if (!m || (Number(m[1]) + 1) % 100 !== Number(m[2])) {
            ctx.addIssue({
              code: "custom",
              message: `"${part}" is not FY:rate%:specified:others (e.g. 2022-23:1%:50000:10000)`,
            });
            return z.NEVER;
          }
          const rateBps = Number(m[3]) * 100 + Number((m[4] ?? "").padEnd(2, "0"));
          if (rateBps > 10_000) {
            ctx.addIssue({ code: "custom", message: `rate in "${part}" is above 100%` });
            return z.NEVER;
          }
          rules.push({
            fromYear: Number(m[1]),
            rateBps,
            specifiedPaise: BigInt(m[5]!) * 100n,
            otherPaise: BigInt(m[6]!) * 100n,
          });
        }
        rules.sort((a, b) => a.fromYear - b.fromYear);
        if (new Set(rules.map((r) => r.fromYear)).size !== rules.length) {
          ctx.addIssue({ code: "custom", message: "two rules for one financial year" });
          return z.NEVER;
        }
        return rules;
      }),
    /**
     * HMAC secret of the sandbox payment provider's webhooks (decision 141). Default: derived from
     * SESSION_SECRET, or else random and kept in DATA_DIR/secrets. The sandbox is never offered when
     * NODE_ENV=production.
     */
    SANDBOX_WEBHOOK_SECRET: z.string().min(16, "must be at least 16 characters").optional(),
    /** A WordPress site whose posts the blog shows beside its own (read from wp-json/wp/v2/posts). */
    WORDPRESS_URL: optionalUrl,
    /** Milliseconds a read of WORDPRESS_URL may take before it counts as failed (the last good list is served). */
    WORDPRESS_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(5000),
    /** Serve the built web app from this directory (default apps/web/dist). */
    WEB_DIST_DIR: z.string().optional(),
    /**
     * Milliseconds a picture's first request waits for its raster rendition; past that the original is
     * sent (not cached) while the rendition is made in the background (0 = always wait; default 1500).
     */
    RENDITION_WAIT_MS: z.coerce.number().int().min(0).max(60_000).default(1500),
    /** Milliseconds identical NFT list queries share one cached answer (0 = off; default 1000). */
    CATALOGUE_LIST_CACHE_MS: z.coerce.number().int().min(0).max(60_000).default(1000),
    /** Answer NFT lists from the in-memory search index (off = SQL queries; decision 023). */
    CATALOGUE_SEARCH_INDEX: z
      .enum(["on", "off", "1", "0", "true", "false"])
      .default("on")
      .transform((v) => v === "on" || v === "1" || v === "true"),
    /**
     * What this process is: `all` serves HTTP and runs the background work (jobs, the indexer),
     * `api` serves HTTP and runs no jobs (it enqueues them), `worker` runs the background work and
     * serves only its health endpoints. Unset: WORKERS decides (`on` = all, `off` = api).
     */
    ROLE: z.enum(["all", "api", "worker"]).optional(),
    /** Run job handlers, schedules and queue maintenance in this process (off = API-only process; ROLE wins when set). */
    WORKERS: z
      .enum(["on", "off", "1", "0", "true", "false"])
      .default("on")
      .transform((v) => v === "on" || v === "1" || v === "true"),
    /**
     * Seconds between job-queue maintenance runs (a worker's): a job left running by a process that
     * died (SIGKILL, power) is retried once its expiry passed and the next run notices.
     */
    JOBS_MAINTENANCE_SECONDS: z.coerce.number().int().min(1).max(3600).default(120),
    /** Run the chain indexer in this process when it is a worker (WORKERS=on); one runs per chain at a time. */
    INDEXER: z
      .enum(["on", "off", "1", "0", "true", "false"])
      .default("on")
      .transform((v) => v === "on" || v === "1" || v === "true"),
    /**
     * When the indexer applies a block: after N confirmations (1 = as soon as it is mined), or once the
     * chain calls it `finalized`. Default: 1 on a local anvil (chain 31337), `finalized` elsewhere.
     */
    INDEXER_CONFIRMATIONS: z
      .union([z.literal("finalized"), z.coerce.number().int("must be an integer").min(1).max(1000)])
      .optional(),
    /** Blocks per getLogs call while catching up (halved when the node refuses a range). */
    INDEXER_BATCH_BLOCKS: z.coerce.number().int().min(1).max(100_000).default(2000),
    /**
     * Seconds a paid card order may wait for its mint (its job failed for good, or its worker died
     * mid-mint) before the reconciler queues the fulfilment again. The contract mints an order once.
     */
    ORDER_FULFILMENT_RETRY_SECONDS: z.coerce.number().int().min(1).max(86_400).default(120),
    /**
     * Unpaid orders (each holds an edition) an account, and a receiving wallet address, may have at
     * once (issue 23 point 1; decision 143). Beyond them a new order is refused with 409, saying the limit.
     */
    UNPAID_HOLDS_PER_ACCOUNT: z.coerce.number().int().min(1).max(1000).default(3),
    UNPAID_HOLDS_PER_WALLET: z.coerce.number().int().min(1).max(1000).default(3),
    /**
     * Where lotteries are allowed (issue 24 point 7): ISO 3166 country (IN) or subdivision (IN-MH)
     * codes separated by commas, or `all`. Unset: every region outside production (the pages say so),
     * none in production.
     */
    LOTTERY_REGIONS: z
      .string()
      .optional()
      .transform((text, ctx) => {
        if (text === undefined || text.trim() === "") return undefined;
        if (text.trim().toLowerCase() === "all") return "all" as const;
        const codes = text
          .split(",")
          .map((c) => c.trim().toUpperCase())
          .filter(Boolean);
        for (const c of codes) {
          if (!/^[A-Z]{2}(-[A-Z0-9]{1,3})?$/.test(c)) {
            ctx.addIssue({
              code: "custom",
              message: `"${c}" is not an ISO 3166 country or subdivision code`,
            });
            return z.NEVER;
          }
        }
        return codes;
      }),
    /** The lottery draw uses the first block numbered at least (the chain's block at closing + N). */
    LOTTERY_DRAW_BLOCKS: z.coerce.number().int().min(1).max(1000).default(3),
    /** Seconds after closing within which a lottery's seed must be revealed; after that it is refunded. */
    LOTTERY_REVEAL_TIMEOUT_SECONDS: z.coerce
      .number()
      .int()
      .min(60)
      .max(30 * 86_400)
      .default(24 * 3600),
    /** Milliseconds between polls of the chain head once caught up. */
    INDEXER_POLL_MS: z.coerce.number().int().min(10).max(60_000).default(1000),
    /** Blocks near the head whose hashes and undo images are kept to roll back a reorganisation. */
    INDEXER_REORG_WINDOW: z.coerce.number().int().min(1).max(100_000).default(256),
    /** Sessions one user may hold; signing in beyond it ends the least recently used ones. */
    MAX_SESSIONS_PER_USER: z.coerce.number().int().min(1).max(1000).default(20),
    /**
     * Password hashes (argon2id) computed at once. They run on libuv's worker pool (4 threads),
     * which file reads (media, the web app) share; bounding them keeps threads and CPU for
     * everything else (decision 062). 0 = unbounded. Default: 1 on two cores, else 2 (at most half
     * the pool).
     */
    HASH_CONCURRENCY: z.coerce
      .number()
      .int()
      .min(0)
      .max(64)
      .default(Math.max(1, Math.min(2, os.availableParallelism() - 1))),
    /** Accounts whose email is still unverified this many days after sign-up are deleted. */
    UNVERIFIED_ACCOUNT_DAYS: z.coerce.number().int().min(1).max(365).default(7),
    /**
     * Milliseconds a client has to send a whole request, headers and body (a body trickled byte by
     * byte is cut off with 408). Answers, including event streams, are not limited by it.
     */
    HTTP_REQUEST_TIMEOUT_MS: z.coerce.number().int().min(500).max(3_600_000).default(60_000),
    /** Milliseconds a client has to send a request's headers (at most HTTP_REQUEST_TIMEOUT_MS). */
    HTTP_HEADERS_TIMEOUT_MS: z.coerce.number().int().min(500).max(3_600_000).default(15_000),
    /**
     * Milliseconds a connection may stay silent both ways (nothing received, nothing sent) before it
     * is closed: a connection that never sends a request, an idle keep-alive. Event streams stay
     * open through their heartbeats, so it must be longer than SSE_HEARTBEAT_MS.
     */
    HTTP_IDLE_TIMEOUT_MS: z.coerce.number().int().min(500).max(3_600_000).default(60_000),
    /**
     * Milliseconds a process told to stop (SIGTERM) keeps serving with /readyz answering 503 before
     * it closes, so the load balancer takes it out of rotation first: about twice the balancer's
     * health-check interval in production; 0 (close at once) by default.
     */
    SHUTDOWN_DRAIN_MS: z.coerce.number().int().min(0).max(120_000).default(0),
    /** Milliseconds between heartbeat comments on the live event streams (GET /api/v1/events). */
    SSE_HEARTBEAT_MS: z.coerce.number().int().min(100).max(300_000).default(25_000),
    /**
     * Live event streams one signed-in account may hold open at once in a server process (GET
     * /api/v1/events and /api/v1/notifications/stream together); one more gets 429 too_many_streams.
     */
    SSE_MAX_STREAMS_PER_USER: z.coerce.number().int().min(1).max(1000).default(5),
    /**
     * Anonymous live event streams (a lottery's live counts) one client address (IPv6: per /64) may
     * hold open at once in a server process; one more gets 429 too_many_streams.
     */
    SSE_MAX_STREAMS_PER_ADDRESS: z.coerce.number().int().min(1).max(100_000).default(20),
    /**
     * Where uploaded and seeded media live (decision 162): `local` (DATA_DIR/media, one machine),
     * `postgres` (a table of the database, shared by every server on it) or `s3` (S3-compatible
     * object storage). Default: postgres when DATABASE_URL is set, else local.
     */
    STORAGE: z.enum(["local", "postgres", "s3"]).optional(),
    /** STORAGE=s3: the bucket (required), its region, and an S3-compatible endpoint (AWS's when unset). */
    S3_BUCKET: optionalSecret,
    S3_REGION: z.string().trim().min(1).default("us-east-1"),
    S3_ENDPOINT: optionalUrl,
    /** STORAGE=s3: the access key; without it the AWS SDK's default credential chain is used. */
    S3_ACCESS_KEY_ID: optionalSecret,
    S3_SECRET_ACCESS_KEY: optionalSecret,
    /** STORAGE=s3: the bucket in the URL path rather than the host name (most S3-compatible servers). */
    S3_FORCE_PATH_STYLE: boolFlag,
    /** STORAGE=s3: prepended to every object key (several deployments sharing a bucket). */
    S3_PREFIX: z
      .string()
      .trim()
      .regex(/^([a-z0-9][a-z0-9_-]*\/)*$/i, "must be empty or end with /")
      .default(""),
    /**
     * GET /metrics (Prometheus) answers only `Authorization: Bearer <this>`; unset, there is no
     * /metrics at all (404). At least 16 characters.
     */
    METRICS_TOKEN: z
      .string()
      .trim()
      .optional()
      .transform((v) => (v === "" ? undefined : v))
      .pipe(z.string().min(16, "must be at least 16 characters").optional()),
    /** Seed the catalogue on first start (default on). */
    SEED_ON_START: z
      .enum(["0", "1", "true", "false"])
      .default("1")
      .transform((v) => v === "1" || v === "true"),
  })
  .transform((env) => {
    const publicUrl = (env.PUBLIC_URL ?? `http://localhost:${env.PORT}`).replace(/\/+$/, "");
    const mailboxOn =
      env.NODE_ENV !== "production" &&
      (env.DEV_MAILBOX === "on" || (env.DEV_MAILBOX === "auto" && isLoopbackUrl(publicUrl)));
    const dataDir = path.resolve(env.DATA_DIR);
    const role = env.ROLE ?? (env.WORKERS ? "all" : "api");
    return {
      ...env,
      /** The process's role (ROLE, or WORKERS mapped: on = all, off = api). */
      ROLE: role,
      /** Whether this process runs job handlers: every role but `api`. */
      WORKERS: role !== "api",
      DATA_DIR: dataDir,
      PUBLIC_URL: publicUrl,
      STORAGE: env.STORAGE ?? (env.DATABASE_URL ? ("postgres" as const) : ("local" as const)),
      /** Everything the server keeps under DATA_DIR, named once here. */
      paths: {
        /** The embedded database (when DATABASE_URL is not set). */
        pglite: path.join(dataDir, "pglite"),
        /** Uploaded and seeded images, served at /media/. */
        media: path.join(dataDir, "media"),
        /** Pictures made from others and kept: image renditions and link-preview cards (safe to delete). */
        cache: path.join(dataDir, "cache"),
        /** The local anvil's saved state (development chain). */
        anvilState: path.join(dataDir, "anvil-state.json"),
        /** Random keys made on first start when SESSION_SECRET is unset (development, staging). */
        secrets: path.join(dataDir, "secrets"),
      },
      /** Whether /dev/mailbox is served, and to whom (`loopback`: only clients on this machine). */
      devMailbox: !mailboxOn
        ? ("off" as const)
        : env.DEV_MAILBOX === "on"
          ? ("any" as const)
          : ("loopback" as const),
    };
  });

/** Whether a URL names this machine: localhost (and *.localhost), 127.0.0.0/8 or ::1. */
export function isLoopbackUrl(url: string): boolean {
  let host: string;
  try {
    host = new URL(url).hostname.toLowerCase();
  } catch {
    return false;
  }
  return (
    host === "localhost" ||
    host.endsWith(".localhost") ||
    /^127(?:\.\d{1,3}){3}$/.test(host) ||
    host === "[::1]"
  );
}

export type Config = z.output<typeof envSchema>;

export class ConfigError extends Error {
  constructor(readonly issues: string[]) {
    super(`Invalid configuration:\n${issues.map((i) => `  - ${i}`).join("\n")}`);
    this.name = "ConfigError";
  }
}

/** Parses the environment; throws one ConfigError naming every bad variable. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const result = envSchema.safeParse(env);
  if (!result.success) {
    throw new ConfigError(result.error.issues.map((i) => `${i.path.join(".") || "(env)"}: ${i.message}`));
  }
  const c = result.data;
  const problems: string[] = [];
  if (c.NODE_ENV === "production") {
    if (!c.SESSION_SECRET) problems.push("SESSION_SECRET: is required when NODE_ENV=production");
    if (!c.SMTP_URL)
      problems.push(
        "SMTP_URL: is required when NODE_ENV=production (mail carries sign-in and reset links and must really be sent)",
      );
    if (c.DEV_MAILBOX === "on")
      problems.push(
        "DEV_MAILBOX: must not be true when NODE_ENV=production (the mailbox hands out every account)",
      );
  } else if (c.NODE_ENV === "development" && c.PUBLIC_URL.startsWith("https:")) {
    problems.push(
      `PUBLIC_URL: ${c.PUBLIC_URL} is https, a public deployment, but NODE_ENV is development: set NODE_ENV=production (development mode relaxes security settings)`,
    );
  }
  if (c.STORAGE === "s3" && !c.S3_BUCKET) problems.push("S3_BUCKET: is required when STORAGE=s3");
  if (c.STORAGE === "s3" && !c.S3_ACCESS_KEY_ID !== !c.S3_SECRET_ACCESS_KEY)
    problems.push("S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY: give both or neither");
  if (c.HTTP_HEADERS_TIMEOUT_MS > c.HTTP_REQUEST_TIMEOUT_MS)
    problems.push("HTTP_HEADERS_TIMEOUT_MS: must not be longer than HTTP_REQUEST_TIMEOUT_MS");
  if (c.HTTP_IDLE_TIMEOUT_MS <= c.SSE_HEARTBEAT_MS)
    problems.push(
      "HTTP_IDLE_TIMEOUT_MS: must be longer than SSE_HEARTBEAT_MS (event streams would be closed between heartbeats)",
    );
  if (problems.length) throw new ConfigError(problems);
  return c;
}

/** loadConfig() for command-line tools: prints the problems and exits with 1 when the configuration is invalid. */
export function loadConfigOrExit(env: Record<string, string | undefined> = process.env): Config {
  try {
    return loadConfig(env);
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(err.message);
      process.exit(1);
    }
    throw err;
  }
}
