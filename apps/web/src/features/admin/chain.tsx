// The console's Chain section (issue 25, decision 173): where the collectible's token URIs point, and
// the exit to an IPFS snapshot (`setBaseURI("ipfs://<root>/metadata/")`), confirmed first.
import type { IpfsExitResult } from "@diginoor/api/admin";
import { useState } from "react";
import { ApiError } from "../../lib/api.ts";
import { Button } from "../../ui/Button.tsx";
import { Dialog } from "../../ui/Dialog.tsx";
import { QueryState } from "../../ui/QueryState.tsx";
import { Skeleton } from "../../ui/Skeleton.tsx";
import { useToast } from "../../ui/Toast.tsx";
import { consoleActions, ipfsExitFormSchema, useAdminWrite, useChainMetadata } from "./api.ts";
import { EntityForm, SectionHead, textOf } from "./components.tsx";

/** The call the admin multisig sends when this server does not hold the collectible's admin key (409). */
interface MultisigCall {
  to: string;
  data: string;
  admin: string;
  baseUri: string;
}

const multisigCallOf = (err: unknown): MultisigCall | null => {
  const d =
    err instanceof ApiError && err.code === "conflict" ? (err.details as Partial<MultisigCall>) : null;
  return d?.to && d.data && d.admin && d.baseUri ? (d as MultisigCall) : null;
};

export function ChainSection() {
  const metadata = useChainMetadata();
  const toast = useToast();
  const exit = useAdminWrite(consoleActions.exitToIpfs);
  const [open, setOpen] = useState(false);
  const [result, setResult] = useState<IpfsExitResult | null>(null);
  const [multisig, setMultisig] = useState<MultisigCall | null>(null);
  // The confirm step: the form's submit waits on the answer (its button spins meanwhile).
  const [asking, setAsking] = useState<{ cid: string; answer: (yes: boolean) => void } | null>(null);
  const confirm = (cid: string) =>
    new Promise<boolean>((resolve) =>
      setAsking({
        cid,
        answer: (yes) => {
          setAsking(null);
          resolve(yes);
        },
      }),
    );

  return (
    <section aria-label="Chain">
      <SectionHead
        title="Chain"
        action={
          open ? null : (
            <Button size="sm" onClick={() => setOpen(true)}>
              Exit to IPFS
            </Button>
          )
        }
      />
      <p className="muted admin-lead">
        Every token's metadata (name, picture, song, traits) is what its tokenURI names. Point it at an IPFS
        snapshot and the collectibles no longer depend on this server.
      </p>
      <QueryState
        query={metadata}
        loading={<Skeleton height={120} />}
        errorTitle="We couldn't read the collectible's metadata address from the chain"
      >
        {(m) => (
          <dl className="admin-facts">
            <div>
              <dt>Collectible contract</dt>
              <dd>
                <code>{m.collectible}</code>
              </dd>
            </div>
            <div>
              <dt>Base URI</dt>
              <dd>{m.baseUri ? <code data-testid="base-uri">{m.baseUri}</code> : "No token minted yet"}</dd>
            </div>
            <div>
              <dt>Metadata served from</dt>
              <dd>{m.onIpfs ? "IPFS (the exit is done)" : "This server"}</dd>
            </div>
          </dl>
        )}
      </QueryState>
      <ol className="admin-steps">
        <li>
          Export the snapshot: <code>npm run export:ipfs -- --out snapshot.car</code> prints its root CID.
        </li>
        <li>
          Pin it: <code>ipfs dag import snapshot.car</code> on your node, or upload the CAR to a pinning
          service.
        </li>
        <li>
          Enter the root CID below. Tokens minted later, and metadata edited or royalties changed after the
          exit, need a new export and exit.
        </li>
      </ol>
      {open ? (
        <EntityForm
          title="Exit to IPFS"
          fields={[
            {
              name: "rootCid",
              label: "Root CID",
              required: true,
              hint: "The root CID the export printed (bafy…), pinned on IPFS",
              wide: true,
            },
          ]}
          initial={{ rootCid: "" }}
          submitLabel="Point metadata at IPFS"
          schema={ipfsExitFormSchema}
          toBody={(v) => ({ rootCid: textOf(v.rootCid) })}
          onCancel={() => setOpen(false)}
          onSubmit={async (body) => {
            // The form's schema accepted it.
            const input = body as { rootCid: string };
            if (!(await confirm(input.rootCid))) return;
            setMultisig(null);
            try {
              const done = await exit.mutateAsync(input);
              setResult(done);
              setOpen(false);
              toast.success("Token metadata now points at IPFS");
            } catch (err) {
              setMultisig(multisigCallOf(err));
              throw err;
            }
          }}
        />
      ) : null}
      {multisig ? (
        <div className="admin-callout" role="note">
          <p>Send this call from the collectible's admin ({multisig.admin}):</p>
          <dl className="admin-facts">
            <div>
              <dt>To</dt>
              <dd>
                <code>{multisig.to}</code>
              </dd>
            </div>
            <div>
              <dt>Data (setBaseURI("{multisig.baseUri}"))</dt>
              <dd>
                <code>{multisig.data}</code>
              </dd>
            </div>
          </dl>
        </div>
      ) : null}
      {result ? (
        <div className="admin-callout" role="status" data-testid="exit-result">
          <p>
            <strong>Done.</strong> Every token's metadata now points at IPFS
            {result.batchMetadataUpdate
              ? "; marketplaces were told to refresh (ERC-4906 BatchMetadataUpdate)."
              : "."}
          </p>
          <dl className="admin-facts">
            <div>
              <dt>New base URI</dt>
              <dd>
                <code>{result.baseUri}</code>
              </dd>
            </div>
            <div>
              <dt>Transaction</dt>
              <dd>
                <code>{result.txHash}</code>
              </dd>
            </div>
          </dl>
        </div>
      ) : null}
      <Dialog
        open={asking !== null}
        onClose={() => asking?.answer(false)}
        title="Point every token's metadata at IPFS?"
      >
        <p className="admin-confirm">
          This points every token's metadata at <code>ipfs://{asking?.cid}/metadata/…</code> with a
          transaction from the collectible's admin key. Wallets and marketplaces will read the snapshot from
          then on; only another change of base URI undoes it. Are you sure?
        </p>
        <div className="admin-form__actions">
          <Button onClick={() => asking?.answer(true)}>Yes, point metadata at IPFS</Button>
          <Button variant="ghost" onClick={() => asking?.answer(false)}>
            Cancel
          </Button>
        </div>
      </Dialog>
    </section>
  );
}
