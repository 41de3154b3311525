import { type Wallet, walletMessages as m, wrongChainMessage } from "@diginoor/api/wallets";
import { useQueryClient } from "@tanstack/react-query";
import { useMemo, useState } from "react";
import { UserRejectedRequestError } from "viem";
import { createSiweMessage } from "viem/siwe";
import {
  type Connector,
  useBalance,
  useConnect,
  useConnection,
  useConnectionEffect,
  useConnectors,
  useDisconnect,
  useSignMessage,
  useSwitchChain,
  WagmiProvider,
} from "wagmi";
import { useLocation, useSearchParams } from "react-router";
import { ApiError } from "../../lib/api.ts";
import { safeNextPath } from "../../lib/safe-next.ts";
import { Price } from "../../ui/Price.tsx";
import { Button, ButtonLink } from "../../ui/Button.tsx";
import { EmptyState } from "../../ui/EmptyState.tsx";
import { QueryState } from "../../ui/QueryState.tsx";
import { Skeleton } from "../../ui/Skeleton.tsx";
import { useToast } from "../../ui/Toast.tsx";
import { type ChainInfo, type useChainInfo, useLinkedWallets, walletApi, walletsQueryKey } from "./api.ts";
import { createWalletConfig } from "../../lib/wallet/wagmi.ts";
import { createPasskeyWallet, passkeysSupported } from "../../lib/wallet/passkey.ts";
import { passkeyErrorMessage, tryAgainLabel } from "../../lib/wallet/passkey-errors.ts";
import { useCurrentUser } from "../../lib/session.ts";
import { PasskeyDevices } from "./PasskeyDevices.tsx";
import { WalletRecoveryCard } from "./Recovery.tsx";
import { UnlinkDialog } from "./UnlinkDialog.tsx";
import "./wallet.css";

type ReadyChain = ChainInfo & { chainId: number };

/**
 * The /wallet page's content for a signed-in user, once the chain settings (`chain`, asked for by the
 * page at once) are known: connect a browser wallet (EIP-6963 or window.ethereum) or WalletConnect,
 * and link it (SIWE).
 */
export function Wallets({ chain }: { chain: ReturnType<typeof useChainInfo> }) {
  const info = chain.data;
  const ready = info?.enabled && info.chainId !== null ? (info as ReadyChain) : undefined;
  const config = useMemo(() => (ready ? createWalletConfig(ready) : undefined), [ready]);
  return (
    <QueryState
      query={chain}
      loading={<WalletSkeleton />}
      errorTitle="We couldn't reach the blockchain settings"
    >
      {() =>
        ready && config ? (
          <WagmiProvider config={config}>
            <WalletScreen info={ready} />
          </WagmiProvider>
        ) : (
          <EmptyState title="Wallets are unavailable">
            {m.chainUnavailable}. Please try again later.
          </EmptyState>
        )
      }
    </QueryState>
  );
}

/** The page's heading and what a wallet is for (with the way back when an action sent the user here). */
export function WalletIntro() {
  return (
    <header className="wallet-intro">
      <h1>Wallet</h1>
      <ReturnNotice />
      <p>
        Your NFTs are kept in a wallet only you control: one made with a passkey on this phone or computer, or
        a crypto wallet app you connect. Purchases are sent to the wallet that receives them.{" "}
        <ButtonLink to="/how it works" variant="ghost" size="sm">
          What is wallet? Learn more
        </ButtonLink>
      </p>
    </header>
  );
}

/**
 * Sent here by an action that needs a linked wallet (`?next=` the page to go back to): says why, and
 * offers to go back once a wallet is linked.
 */
function ReturnNotice() {
  const [params] = useSearchParams();
  const location = useLocation();
  const next = safeNextPath(params.get("next"));
  const linked = useLinkedWallets(!!next);
  if (!next) return null;
  const reason = (location.state as { reason?: string } | null)?.reason ?? m.walletRequired;
  const hasWallet = (linked.data?.items.length ?? 0) > 0;
  return (
    <div className="wallet-return" role="status">
      <strong>{hasWallet ? "Your wallet is linked." : reason}</strong>
      {hasWallet ? (
        <ButtonLink to={next} size="sm">
          Continue where you were
        </ButtonLink>
      ) : (
        <span>Connect a wallet below and link it to your account; we will take you back after.</span>
      )}
    </div>
  );
}

export function WalletSkeleton() {
  return (
    <div className="wallet-card" data-loading="">
      <Skeleton height="1.5em" width="40%" />
      <Skeleton height="3rem" />
      <Skeleton height="3rem" />
    </div>
  );
}

/** The wallets the browser offers: EIP-6963 announcements, else the plain window.ethereum, and WalletConnect. */
function useWalletChoices(): Connector[] {
  const connectors = useConnectors();
  const announced = connectors.filter((c) => c.type === "injected" && c.id !== "injected");
  const plain = connectors.find((c) => c.id === "injected");
  const hasWindowEthereum = typeof window !== "undefined" && "ethereum" in window && !!window.ethereum;
  const others = connectors.filter((c) => c.type !== "injected");
  return [...announced, ...(announced.length === 0 && hasWindowEthereum && plain ? [plain] : []), ...others];
}

function connectorLabel(c: Connector): string {
  if (c.id === "injected") return "Browser wallet";
  if (c.id === "walletConnect") return "WalletConnect (scan a QR code with a mobile wallet)";
  return c.name;
}

function WalletScreen({ info }: { info: ReadyChain }) {
  const toast = useToast();
  const connection = useConnection();
  const choices = useWalletChoices();
  const connect = useConnect();
  const disconnect = useDisconnect();

  useConnectionEffect({
    onConnect: ({ isReconnected }) => {
      if (!isReconnected) toast.success(m.connectedToast);
    },
  });

  const connectError =
    connect.error && !(connect.error.cause instanceof UserRejectedRequestError) ? connect.error : null;

  return (
    <div className="wallet-grid">
      {info.accountFactory ? <PasskeyWalletCard /> : null}
      {info.accountFactory ? <PasskeyWalletCare info={info} /> : null}
      {connection.status === "connected" && connection.address ? (
        <ConnectedCard
          info={info}
          address={connection.address}
          walletChainId={connection.chainId}
          connectorName={connection.connector?.name ?? "Wallet"}
          onDisconnect={() => disconnect.mutate()}
        />
      ) : (
        <section className="wallet-card" aria-labelledby="connect-title">
          <h2 id="connect-title">Connect a wallet</h2>
          {choices.length === 0 ? (
            <div className="wallet-notice" role="status">
              <strong>No wallet app found</strong>
              <p>
                {info.accountFactory
                  ? "You don't need one: your passkey wallet buys by card, holds and sells your NFTs. To pay in crypto or use MetaMask too, install a wallet app and reload this page."
                  : "Install MetaMask or another wallet extension, then reload this page."}
              </p>
            </div>
          ) : (
            <ul className="wallet-choices">
              {choices.map((c) => (
                <li key={c.uid}>
                  <Button
                    variant="secondary"
                    block
                    className="wallet-choice"
                    loading={connect.isPending && connect.variables?.connector === c}
                    disabled={connect.isPending}
                    onClick={() => connect.mutate({ connector: c })}
                  >
                    {c.icon ? <img src={c.icon} alt="" width={28} height={28} /> : null}
                    <span>{connectorLabel(c)}</span>
                  </Button>
                </li>
              ))}
            </ul>
          )}
          {connectError ? (
            <p className="wallet-error" role="alert">
              {shortError(connectError)}
            </p>
          ) : null}
        </section>
      )}
      <LinkedWallets
        info={info}
        connectedAddress={connection.status === "connected" ? connection.address : undefined}
      />
    </div>
  );
}

/**
 * The passkey wallet (decision 160): our ERC-4337 account of a passkey kept by this phone or computer.
 * Made here with one confirmation (fingerprint, face or screen lock); the gas of the fan's own actions is
 * paid by Diginoor.
 */
function PasskeyWalletCard() {
  const toast = useToast();
  const queryClient = useQueryClient();
  const { user } = useCurrentUser();
  const wallets = useLinkedWallets(true);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const passkey = wallets.data?.items.find((w) => w.kind === "passkey");
  async function create() {
    setBusy(true);
    setError(null);
    try {
      await createPasskeyWallet(user?.email ?? "fan");
      await queryClient.invalidateQueries({ queryKey: walletsQueryKey });
      toast.success(m.passkeyCreated);
    } catch (err) {
      setError(
        err instanceof ApiError
          ? err.message
          : (passkeyErrorMessage(err) ?? "The passkey was not created on this device. Nothing has changed."),
      );
    } finally {
      setBusy(false);
    }
  }
  return (
    <section className="wallet-card" aria-labelledby="passkey-title">
      <h2 id="passkey-title">Passkey wallet</h2>
      {passkey ? (
        <dl className="wallet-facts">
          <div>
            <dt>Address</dt>
            <dd className="wallet-address" data-testid="passkey-address">
              {passkey.address}
            </dd>
          </div>
          <div>
            <dt>Signs with</dt>
            <dd>The passkey on your device (fingerprint, face or screen lock); gas is paid by Diginoor</dd>
          </div>
        </dl>
      ) : (
        <>
          <p>
            A wallet made with a passkey on this phone or computer: no app, no seed phrase, and the NFTs in it
            are yours alone. Card and UPI purchases arrive here, and listing or sending them costs you no gas.
          </p>
          {passkeysSupported() ? (
            <Button onClick={create} loading={busy}>
              {error ? tryAgainLabel : "Create my passkey wallet"}
            </Button>
          ) : (
            <p className="wallet-error">This browser cannot make passkeys; use a wallet app below.</p>
          )}
          {error ? (
            <p className="wallet-error" role="alert">
              {error}
            </p>
          ) : null}
        </>
      )}
    </section>
  );
}

/** A passkey wallet's other devices and its recovery (decisions 160, 171). */
function PasskeyWalletCare({ info }: { info: ReadyChain }) {
  const wallets = useLinkedWallets(true);
  const wallet = wallets.data?.items.find((w) => w.kind === "passkey" && w.passkey);
  if (!wallet) return null;
  return (
    <>
      <PasskeyDevices info={info} wallet={wallet} />
      <WalletRecoveryCard info={info} wallet={wallet} />
    </>
  );
}

function shortError(err: Error): string {
  const withShort = err as Error & { shortMessage?: string };
  return withShort.shortMessage ?? err.message;
}

function ConnectedCard({
  info,
  address,
  walletChainId,
  connectorName,
  onDisconnect,
}: {
  info: ReadyChain;
  address: `0x${string}`;
  walletChainId: number | undefined;
  connectorName: string;
  onDisconnect: () => void;
}) {
  const symbol = info.nativeSymbol ?? "ETH";
  const chainName = info.chainName ?? `Chain ${info.chainId}`;
  const balance = useBalance({ address, chainId: info.chainId });
  const switchChain = useSwitchChain();
  const wrongChain = walletChainId !== undefined && walletChainId !== info.chainId;

  return (
    <section className="wallet-card wallet-card--connected" aria-labelledby="connected-title">
      <h2 id="connected-title" className="wallet-success">
        {m.connected}
      </h2>
      <dl className="wallet-facts">
        <div>
          <dt>Wallet</dt>
          <dd>{connectorName}</dd>
        </div>
        <div>
          <dt>Address</dt>
          <dd className="wallet-address" data-testid="wallet-address">
            {address}
          </dd>
        </div>
        <div>
          <dt>Balance on {chainName}</dt>
          <dd data-testid="wallet-balance" className="wallet-amount">
            {balance.data ? (
              <Price wei={balance.data.value} symbol={symbol} stacked />
            ) : balance.error ? (
              <span className="wallet-error">Balance unavailable: {shortError(balance.error)}</span>
            ) : (
              <Skeleton width="10rem" />
            )}
          </dd>
        </div>
      </dl>
      {wrongChain ? (
        <div className="wallet-notice wallet-notice--warning" role="alert">
          <strong>{wrongChainMessage("pay", info.chainId, chainName)}</strong>
          <p>
            Your wallet is on another network (chain {walletChainId}). Diginoor runs on {chainName}.
          </p>
          <Button
            variant="primary"
            loading={switchChain.isPending}
            onClick={() => switchChain.mutate({ chainId: info.chainId })}
          >
            Switch to {chainName}
          </Button>
          {switchChain.error ? <p className="wallet-error">{shortError(switchChain.error)}</p> : null}
        </div>
      ) : null}
      <div className="wallet-actions">
        <LinkButton address={address} />
        <Button variant="ghost" onClick={onDisconnect}>
          Disconnect
        </Button>
      </div>
    </section>
  );
}

/** 'Link this wallet': a SIWE message with the server's nonce, signed in the wallet, checked by the server. */
function LinkButton({ address }: { address: `0x${string}` }) {
  const toast = useToast();
  const queryClient = useQueryClient();
  const linked = useLinkedWallets(true);
  const sign = useSignMessage();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const mine = linked.data?.items.find((w) => w.address.toLowerCase() === address.toLowerCase());

  if (mine) {
    return (
      <p className="wallet-linked" data-testid="wallet-linked">
        This wallet is linked to your account{mine.receivesPurchases ? " and receives your purchases" : ""}.
      </p>
    );
  }

  async function link() {
    setBusy(true);
    setError(null);
    try {
      const n = await walletApi.nonce();
      const issuedAt = new Date();
      const message = createSiweMessage({
        address,
        chainId: n.chainId,
        domain: n.domain,
        uri: n.uri,
        nonce: n.nonce,
        version: "1",
        statement: "Link this wallet to my Diginoor account.",
        issuedAt,
        expirationTime: new Date(issuedAt.getTime() + 10 * 60_000),
      });
      const signature = await sign.mutateAsync({ message, account: address });
      await walletApi.link(message, signature);
      toast.success(m.linked);
      await queryClient.invalidateQueries({ queryKey: walletsQueryKey });
    } catch (err) {
      if (err instanceof ApiError) setError(err.message);
      else if (err instanceof Error && /reject|denied/i.test(err.message))
        setError("You declined the signature request in your wallet.");
      else setError(err instanceof Error ? shortError(err) : "Something Went Wrong");
    } finally {
      setBusy(false);
    }
  }

  return (
    <div className="wallet-link">
      <Button variant="primary" loading={busy} onClick={link}>
        Link this wallet
      </Button>
      {error ? (
        <p className="wallet-error" role="alert">
          {error}
        </p>
      ) : null}
    </div>
  );
}

function LinkedWallets({
  info,
  connectedAddress,
}: {
  info: ReadyChain;
  connectedAddress: string | undefined;
}) {
  const toast = useToast();
  const queryClient = useQueryClient();
  const linked = useLinkedWallets(true);
  const [pending, setPending] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  // The wallet whose Unlink was tapped: a dialog names what it holds and asks first (issue 35 item 2).
  const [unlinking, setUnlinking] = useState<string | null>(null);
  const toUnlink = linked.data?.items.find((w) => w.address === unlinking);

  /**
   * Unlinks, then forgets what was read of that wallet (its passkey requests): the page stops asking the
   * server about a wallet that is no longer the fan's, before the list is read again.
   */
  async function unlink(address: string) {
    await walletApi.unlink(address);
    queryClient.setQueryData<{ items: Wallet[] }>(walletsQueryKey, (d) =>
      d ? { ...d, items: d.items.filter((w) => w.address !== address) } : d,
    );
    queryClient.removeQueries({ queryKey: [...walletsQueryKey, address] });
  }

  async function run(address: string, action: () => Promise<unknown>, done: string) {
    setPending(address);
    setError(null);
    try {
      await action();
      toast.success(done);
      // The list only: a wallet's own reads (its passkey requests) are not asked again for this.
      await queryClient.invalidateQueries({ queryKey: walletsQueryKey, exact: true });
    } catch (err) {
      setError(err instanceof Error ? err.message : "Something Went Wrong");
    } finally {
      setPending(null);
    }
  }

  return (
    <section className="wallet-card" aria-labelledby="linked-title">
      <h2 id="linked-title">Linked wallets</h2>
      <QueryState
        query={linked}
        loading={<Skeleton height="3rem" />}
        isEmpty={(d) => d.items.length === 0}
        empty={
          <p className="wallet-muted">
            No wallet is linked yet. Create your passkey wallet or connect a wallet app and link it: your
            purchases are sent to it.
          </p>
        }
      >
        {(data) => (
          <ul className="wallet-list" aria-label="Linked wallets">
            {data.items.map((w) => (
              <li key={w.address} className="wallet-row">
                <span className="wallet-address">{w.address}</span>
                <span className="wallet-tags">
                  {w.kind === "passkey" ? (
                    <span className="wallet-badge wallet-badge--quiet">Passkey wallet</span>
                  ) : null}
                  {w.receivesPurchases ? <span className="wallet-badge">Receives purchases</span> : null}
                  {connectedAddress?.toLowerCase() === w.address.toLowerCase() ? (
                    <span className="wallet-badge wallet-badge--quiet">Connected</span>
                  ) : null}
                </span>
                <span className="wallet-row-actions">
                  {!w.receivesPurchases ? (
                    <Button
                      size="sm"
                      variant="secondary"
                      disabled={pending !== null}
                      onClick={() =>
                        run(
                          w.address,
                          () => walletApi.makeReceiving(w.address),
                          "Purchases will go to this wallet",
                        )
                      }
                    >
                      Receive purchases here
                    </Button>
                  ) : null}
                  <Button
                    size="sm"
                    variant="ghost"
                    loading={pending === w.address}
                    disabled={pending !== null}
                    aria-label={`Unlink ${w.address}`}
                    onClick={() => setUnlinking(w.address)}
                  >
                    Unlink
                  </Button>
                </span>
              </li>
            ))}
          </ul>
        )}
      </QueryState>
      {error ? (
        <p className="wallet-error" role="alert">
          {error}
        </p>
      ) : null}
      {toUnlink ? (
        <UnlinkDialog
          wallet={toUnlink}
          chainId={info.chainId}
          symbol={info.nativeSymbol ?? "ETH"}
          busy={pending === toUnlink.address}
          onClose={() => setUnlinking(null)}
          onConfirm={() =>
            run(toUnlink.address, () => unlink(toUnlink.address), m.unlinked).finally(() =>
              setUnlinking(null),
            )
          }
        />
      ) : null}
    </section>
  );
}
