import { useState } from "react";
import { getAddress, isAddress } from "viem";
import { Button } from "../../ui/Button.tsx";
import { Dialog } from "../../ui/Dialog.tsx";
import { TextField } from "../../ui/TextField.tsx";
import "./wallet-ui.css";

/**
 * "Send to my own wallet" for a token in the fan's passkey wallet: any address, then a confirmation that
 * names it in full (a transfer cannot be undone). Diginoor pays the gas to a wallet the fan linked (decision 186).
 */
export function SendToOwnWallet({
  title,
  busy,
  onSend,
}: {
  title: string;
  busy: boolean;
  onSend: (to: `0x${string}`) => Promise<void>;
}) {
  const [open, setOpen] = useState(false);
  const [address, setAddress] = useState("");
  const [confirming, setConfirming] = useState<`0x${string}` | null>(null);
  const [error, setError] = useState<string | null>(null);

  function close() {
    setOpen(false);
    setConfirming(null);
    setError(null);
  }

  return (
    <>
      <Button variant="ghost" onClick={() => setOpen(true)} disabled={busy}>
        Send to my own wallet
      </Button>
      <Dialog open={open} onClose={close} title="Send to my own wallet">
        {confirming ? (
          <div className="trade">
            <p>
              Send <strong>{title}</strong> to this address?
              <code className="send-address">{confirming}</code>
              Check the address: a transfer cannot be undone, and a token sent to a wrong address is lost.
            </p>
            <div className="trade-row">
              <Button
                onClick={() => {
                  const to = confirming;
                  close();
                  void onSend(to);
                }}
              >
                Yes, send it
              </Button>
              <Button variant="secondary" onClick={() => setConfirming(null)}>
                Back
              </Button>
            </div>
          </div>
        ) : (
          <form
            className="trade"
            noValidate
            onSubmit={(e) => {
              e.preventDefault();
              const a = address.trim();
              if (!isAddress(a, { strict: false })) {
                setError("Enter a wallet address: 0x followed by 40 hexadecimal characters");
                return;
              }
              setError(null);
              setConfirming(getAddress(a));
            }}
          >
            <p>
              Move this NFT to a wallet app you control (MetaMask, a hardware wallet…) that you linked to your
              account on the Wallets page: Diginoor pays the gas.
            </p>
            <TextField
              label="Wallet address"
              value={address}
              autoComplete="off"
              spellCheck={false}
              onChange={(e) => setAddress(e.target.value)}
              error={error ?? undefined}
            />
            <Button type="submit">Continue</Button>
          </form>
        )}
      </Dialog>
    </>
  );
}
