import { privacyMessages } from "@diginoor/api/privacy";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useNavigate } from "react-router";
import { ApiError, messageOf } from "../../lib/api.ts";
import {
  applyServerErrors,
  type FieldMessages,
  fieldProps,
  hasMessages,
  useAppForm,
} from "../../lib/form.ts";
import { sessionQueryKey } from "../../lib/session.ts";
import { Button } from "../../ui/Button.tsx";
import { Dialog } from "../../ui/Dialog.tsx";
import { TextField } from "../../ui/TextField.tsx";
import { useToast } from "../../ui/Toast.tsx";
import { deleteAccount, requestDataExport } from "./api.ts";

const SOMETHING_WRONG = "Something Went Wrong";

/**
 * Your data (decision 170, the DPDP Act 2023): a copy of everything we hold about you, mailed as a
 * one-time link, and the deletion of the account behind a confirmation dialog.
 */
export function DataRights({ onDeleted }: { onDeleted: () => void }) {
  const toast = useToast();
  const [queued, setQueued] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const exportData = useMutation({
    mutationFn: requestDataExport,
    onSuccess: () => {
      setQueued(true);
      toast.success("Your data is being prepared");
    },
    onError: (err) => toast.error(messageOf(err, SOMETHING_WRONG)),
  });

  return (
    <section className="profile-card" aria-labelledby="data-title">
      <h2 className="profile-card__title" id="data-title">
        Your data
      </h2>
      <p className="profile-card__lead">
        Download a copy of everything Diginoor holds about you: your account, sessions, wallets, orders,
        tickets, bids, likes, follows, notifications, emails and consents, in one JSON file. We email you a
        link that works once, for 48 hours.
      </p>
      {queued ? (
        <div className="auth-notice auth-notice--success" role="status">
          <p>{privacyMessages.exportQueued}</p>
        </div>
      ) : null}
      <div className="profile-card__actions">
        <Button variant="secondary" loading={exportData.isPending} onClick={() => exportData.mutate()}>
          DOWNLOAD MY DATA
        </Button>
      </div>
      <h3 className="profile-card__subtitle">Delete my account</h3>
      <p className="profile-card__lead">
        Deleting your account signs you out everywhere, unlinks your wallets and erases your name, email,
        phone, pictures and handle. Orders, payments and on-chain records must be kept by law and by the
        chain: they stay, no longer linked to you. Tokens in your wallets stay yours. This cannot be undone.
      </p>
      <div className="profile-card__actions">
        <Button variant="danger" onClick={() => setConfirming(true)}>
          DELETE MY ACCOUNT
        </Button>
      </div>
      <Dialog open={confirming} onClose={() => setConfirming(false)} title="Delete your account?">
        <DeleteAccountForm onCancel={() => setConfirming(false)} onDeleted={onDeleted} />
      </Dialog>
    </section>
  );
}

function DeleteAccountForm({ onCancel, onDeleted }: { onCancel: () => void; onDeleted: () => void }) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const toast = useToast();
  const [mailed, setMailed] = useState<string | null>(null);
  const form = useAppForm({ defaultValues: { password: "" } });

  const remove = useMutation({
    mutationFn: deleteAccount,
    onSuccess: (answer) => {
      if (!answer.deleted) {
        setMailed(answer.message);
        return;
      }
      onDeleted();
      toast.success(answer.message);
      navigate("/", { replace: true });
      queryClient.setQueryData(sessionQueryKey, null);
    },
    onError: (err) => {
      const wrong: FieldMessages =
        err instanceof ApiError && err.status === 401 ? { password: err.message || "Wrong password" } : {};
      const shown = applyServerErrors(form, err, { extra: wrong });
      if (!hasMessages(shown)) toast.error(messageOf(err, SOMETHING_WRONG));
    },
  });

  const onSubmit = form.handleSubmit(({ password }) => remove.mutate(password ? { password } : {}));

  if (mailed) {
    return (
      <div className="auth-notice auth-notice--success" role="status">
        <p>{mailed}</p>
      </div>
    );
  }
  return (
    <form className="auth-form" noValidate onSubmit={onSubmit} aria-label="Delete your account">
      <p className="profile-card__lead">
        Your name, email, phone, pictures and handle will be erased and you will be signed out. Enter your
        password to confirm. If you sign in with Google only, leave it empty: we email you a confirmation
        link.
      </p>
      <TextField
        label="Password"
        type="password"
        autoComplete="current-password"
        {...fieldProps(form, "password")}
      />
      <div className="profile-card__actions profile-card__actions--split">
        <Button type="button" variant="secondary" onClick={onCancel}>
          CANCEL
        </Button>
        <Button type="submit" variant="danger" loading={remove.isPending}>
          DELETE MY ACCOUNT
        </Button>
      </div>
    </form>
  );
}
