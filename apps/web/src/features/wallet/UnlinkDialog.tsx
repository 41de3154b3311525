import type { tokenEndpoints } from "@diginoor/api/chain";
import type { Wallet } from "@diginoor/api/wallets";
import { useQuery } from "@tanstack/react-query";
import { useBalance } from "wagmi";
import { callApi } from "../../lib/api.ts";
import { Button, ButtonLink } from "../../ui/Button.tsx";
import { Dialog } from "../../ui/Dialog.tsx";
import { Price } from "../../ui/Price.tsx";
import { Skeleton } from "../../ui/Skeleton.tsx";

/** The words of the unlink dialog (issue 35 item 2), kept together for translation. */
export const unlinkCopy = {
  titleAsk: "Unlink this wallet?",
  titleRefused: "This wallet can't be unlinked yet",
  nfts: (n: number) => (n === 1 ? "1 NFT" : `${n} NFTs`),
  passkeyFull:
    "Only your passkey on this account reaches this wallet: unlinking it now would leave what it holds where you could no longer use it. Send your NFTs and balance to another wallet first, then unlink it.",
  passkeyEmpty:
    "Your passkey wallet is empty, so nothing is lost. Unlinking takes it off your account; afterwards, Create my passkey wallet on this page makes you a new one whenever you want it.",
  externalFull: (nfts: string) =>
    `Your wallet app still holds ${nfts}, but they will no longer show in your showcase or My NFTs on Diginoor, and you cannot sell them here until you link the wallet again.`,
  externalEmpty:
    "Your wallet app keeps everything in it; the wallet just stops being linked to your Diginoor account. You can link it again any time.",
  receives: "Your purchases will then go to your newest other linked wallet, if you have one.",
  holds: "It holds",
  nothing: "No NFTs and no balance",
  confirm: "Unlink",
  keep: "Keep it linked",
  close: "Got it",
  myNfts: "Go to My NFTs",
  checking: "Checking what this wallet holds…",
};

/** Confirms an unlink, naming what it holds; a passkey wallet holding anything is not offered the action. */
export function UnlinkDialog({
  wallet,
  chainId,
  symbol,
  busy,
  onConfirm,
  onClose,
}: {
  wallet: Wallet;
  chainId: number;
  symbol: string;
  busy: boolean;
  onConfirm: () => void;
  onClose: () => void;
}) {
  const c = unlinkCopy;
  const tokens = useQuery({
    queryKey: ["account-tokens", wallet.address],
    queryFn: ({ signal }) =>
      callApi<typeof tokenEndpoints.listAccountTokens>("GET /api/v1/accounts/{address}/tokens", {
        params: { address: wallet.address },
        signal,
      }),
  });
  const balance = useBalance({ address: wallet.address as `0x${string}`, chainId });
  const loading = tokens.isPending || balance.isPending;
  const count = tokens.data?.items.length ?? 0;
  const wei = balance.data?.value ?? 0n;
  const full = count > 0 || wei > 0n;
  const passkey = wallet.kind === "passkey";
  // A passkey wallet whose holdings are unknown (a failed read) is treated as full: never offered blind.
  const refused = passkey && (full || tokens.isError || balance.isError);
  return (
    <Dialog open onClose={onClose} title={refused ? c.titleRefused : c.titleAsk}>
      <div className="unlink-dialog" data-testid="unlink-dialog">
        <p className="wallet-address">{wallet.address}</p>
        {loading ? (
          <>
            <p className="wallet-muted">{c.checking}</p>
            <Skeleton height="2rem" />
          </>
        ) : (
          <>
            <dl className="wallet-facts">
              <div>
                <dt>{c.holds}</dt>
                <dd data-testid="unlink-holds">
                  {full ? (
                    <>
                      {count > 0 ? c.nfts(count) : null}
                      {count > 0 && wei > 0n ? " · " : null}
                      {wei > 0n ? <Price wei={wei} symbol={symbol} /> : null}
                    </>
                  ) : (
                    c.nothing
                  )}
                </dd>
              </div>
            </dl>
            <p>
              {passkey
                ? refused
                  ? c.passkeyFull
                  : c.passkeyEmpty
                : full
                  ? c.externalFull(c.nfts(count))
                  : c.externalEmpty}
            </p>
            {!refused && wallet.receivesPurchases ? <p className="wallet-muted">{c.receives}</p> : null}
          </>
        )}
        <div className="unlink-actions">
          {refused ? (
            <>
              <ButtonLink to="/profile" variant="primary">
                {c.myNfts}
              </ButtonLink>
              <Button variant="secondary" onClick={onClose}>
                {c.close}
              </Button>
            </>
          ) : (
            <>
              <Button variant="secondary" onClick={onClose}>
                {c.keep}
              </Button>
              <Button variant="danger" loading={busy} disabled={loading} onClick={onConfirm}>
                {c.confirm}
              </Button>
            </>
          )}
        </div>
      </div>
    </Dialog>
  );
}
