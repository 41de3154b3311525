/** Mail bodies, each with an HTML and a plain-text version. Links are absolute, built from PUBLIC_URL. */

export interface RenderedMail {
  subject: string;
  text: string;
  html: string;
}

export function escapeHtml(s: string): string {
  return s.replace(
    /[&<>"']/g,
    (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c] ?? c,
  );
}

function layout(title: string, paragraphs: string[], action?: { label: string; url: string }): string {
  const body = paragraphs.map((p) => `<p style="margin:0 0 16px">${escapeHtml(p)}</p>`).join("\n");
  const button = action
    ? `<p style="margin:24px 0"><a href="${escapeHtml(action.url)}" style="background:#7b2ff7;color:#fff;padding:12px 20px;border-radius:6px;text-decoration:none;font-weight:600">${escapeHtml(action.label)}</a></p>
<p style="margin:0 0 16px;font-size:13px;color:#555">If the button does not work, open this link: <a href="${escapeHtml(action.url)}">${escapeHtml(action.url)}</a></p>`
    : "";
  return `<!doctype html><html><body style="font-family:Inter,Arial,sans-serif;color:#111;max-width:560px;margin:0 auto;padding:24px">
<h1 style="font-family:'Playfair Display',Georgia,serif;font-size:24px">${escapeHtml(title)}</h1>
${body}
${button}
<p style="margin-top:32px;font-size:12px;color:#777">Diginoor — licensed NFTs of Indian cinema.</p>
</body></html>`;
}

/** "Hello Name," — or just "Hello," when the name must not be shown (see accounts.ts). */
function greeting(name: string | null): string {
  return name ? `Hello ${name},` : "Hello,";
}

export function verificationMail(name: string | null, url: string, isEmailChange: boolean): RenderedMail {
  const subject = isEmailChange
    ? "Confirm your new Diginoor email address"
    : "Verify your Diginoor email address";
  const lines = [
    greeting(name),
    isEmailChange
      ? "Please confirm that this is your new email address for Diginoor."
      : "Welcome to Diginoor! Please verify your email address to finish creating your account.",
    "This link works once and expires in 24 hours. If you did not ask for this, you can ignore this email.",
  ];
  return {
    subject,
    text: `${lines.join("\n\n")}\n\nVerify: ${url}\n`,
    html: layout(subject, lines, { label: "Verify email", url }),
  };
}

export function passwordResetMail(name: string | null, url: string): RenderedMail {
  const subject = "Reset your Diginoor password";
  const lines = [
    greeting(name),
    "Someone asked to reset the password of your Diginoor account. Use the link below to choose a new one.",
    "This link works once and expires in 1 hour. Resetting signs you out everywhere. If you did not ask for this, ignore this email: your password stays the same.",
  ];
  return {
    subject,
    text: `${lines.join("\n\n")}\n\nReset password: ${url}\n`,
    html: layout(subject, lines, { label: "Reset password", url }),
  };
}

/**
 * Sent to the account's previous address when its email moved to another one: if the owner did not
 * do it, this is how they learn (the new address now receives the reset links).
 */
export function emailChangedMail(name: string | null, newEmail: string, helpUrl: string): RenderedMail {
  const subject = "Your Diginoor email address was changed";
  const lines = [
    greeting(name),
    `The email address of your Diginoor account was changed to ${newEmail}. Mail for your account, including password reset links, now goes there.`,
    "If you did not make this change, contact us at once: someone else may control your account.",
  ];
  return {
    subject,
    text: `${lines.join("\n\n")}\n\nContact us: ${helpUrl}\n`,
    html: layout(subject, lines, { label: "Contact us", url: helpUrl }),
  };
}

/** Sent to the account's address when its password was changed or reset (every session was ended). */
export function passwordChangedMail(name: string | null, signInUrl: string): RenderedMail {
  const subject = "Your Diginoor password was changed";
  const lines = [
    greeting(name),
    "The password of your Diginoor account was just changed, and every device signed in to it was signed out.",
    "If you did not do this, choose a new password at once with 'Forgot password?' on the sign-in page.",
  ];
  return {
    subject,
    text: `${lines.join("\n\n")}\n\nSign in: ${signInUrl}\n`,
    html: layout(subject, lines, { label: "Go to sign-in", url: signInUrl }),
  };
}

/**
 * The recovery of a passkey wallet (decision 160): the link that starts it (`link`), and the security
 * notices of each step after (`notice`: proposed, a day before it can complete, completed, cancelled).
 * Never unsubscribable: a fan who did not ask for a recovery must hear of it in time to cancel it.
 */
export function walletRecoveryMail(
  name: string | null,
  m: { kind: "link"; url: string } | { kind: "notice"; subject: string; lines: string[]; url: string },
): RenderedMail {
  if (m.kind === "link") {
    const subject = "Recover your Diginoor passkey wallet";
    const lines = [
      greeting(name),
      "Someone signed in to your Diginoor account and asked to recover its passkey wallet with a new passkey, because every device with the old one was lost.",
      "Open this link on the phone or computer that will hold the new passkey. It works once and expires in 30 minutes. The new passkey takes over only 7 days after you confirm, and any passkey of the wallet can cancel it until then.",
      "If you did not ask for this, ignore this email and change your password.",
    ];
    return {
      subject,
      text: `${lines.join("\n\n")}\n\nRecover: ${m.url}\n`,
      html: layout(subject, lines, { label: "Recover my wallet", url: m.url }),
    };
  }
  const lines = [greeting(name), ...m.lines];
  return {
    subject: m.subject,
    text: `${lines.join("\n\n")}\n\nYour wallet: ${m.url}\n`,
    html: layout(m.subject, lines, { label: "Open my wallet", url: m.url }),
  };
}

/** Sent once a purchase is fulfilled: the token is in the buyer's wallet. */
export function orderConfirmedMail(
  name: string | null,
  o: { title: string; edition: number; amount: string; tokenId: string; wallet: string; url: string },
): RenderedMail {
  const subject = `Your Diginoor NFT is in your wallet: ${o.title}`;
  const lines = [
    greeting(name),
    `Thank you for your purchase. ${o.title} (edition #${o.edition}) is now in your wallet ${o.wallet} as token #${o.tokenId}.`,
    `You paid ${o.amount}.`,
  ];
  return {
    subject,
    text: `${lines.join("\n\n")}\n\nYour order: ${o.url}\n`,
    html: layout(subject, lines, { label: "See your order", url: o.url }),
  };
}

/** An order refunded in full (decision 144): what, how much, why, and that the token (if any) stays. */
export function orderRefundedMail(
  name: string | null,
  o: { title: string; edition: number | null; amount: string; why: string; tokenKept: boolean; url: string },
): RenderedMail {
  const subject = `Your Diginoor order was refunded: ${o.title}`;
  const lines = [
    greeting(name),
    `We refunded ${o.amount} for ${o.title}${o.edition === null ? "" : ` (edition #${o.edition})`}: ${o.why}.`,
    "The money goes back to the card or account you paid with; your bank may take a few days to show it.",
    ...(o.tokenKept ? ["The token already in your wallet stays yours."] : []),
  ];
  return {
    subject,
    text: `${lines.join("\n\n")}\n\nYour order: ${o.url}\n`,
    html: layout(subject, lines, { label: "See your order", url: o.url }),
  };
}

/** A lottery's winner (decision 161): the winning ticket, the prize, and what happens next. */
export function lotteryWonMail(
  name: string | null,
  l: { lottery: string; ticket: number; prize: string; next: string; url: string },
): RenderedMail {
  const subject = `You won the Diginoor lottery ${l.lottery}`;
  const lines = [
    greeting(name),
    `Your ticket ${l.ticket} was drawn in ${l.lottery}: you win ${l.prize}.`,
    l.next,
    "Anyone can check the draw: the verify page shows every input and how to recompute the result.",
  ];
  return {
    subject,
    text: `${lines.join("\n\n")}\n\nThe draw: ${l.url}\n`,
    html: layout(subject, lines, { label: "See the draw", url: l.url }),
  };
}

/**
 * One notification by email (decision 152): its line, a link to it, and how to stop this kind of
 * mail (a one-click unsubscribe page, and the settings where every kind can be turned back on).
 */
export function notificationMail(
  name: string | null,
  n: {
    subject: string;
    text: string;
    url: string;
    unsubscribeUrl: string;
    settingsUrl: string;
    what: string;
  },
): RenderedMail {
  const lines = [greeting(name), n.text];
  const footer = `You receive this email because "Email me when ${n.what}" is on in your notification settings.`;
  const html = layout(n.subject, lines, { label: "Open on Diginoor", url: n.url }).replace(
    '<p style="margin-top:32px;',
    `<p style="margin:24px 0 0;font-size:12px;color:#777">${escapeHtml(footer)} <a href="${escapeHtml(n.unsubscribeUrl)}">Unsubscribe from these emails</a> · <a href="${escapeHtml(n.settingsUrl)}">Notification settings</a></p>
<p style="margin-top:8px;`,
  );
  return {
    subject: n.subject,
    text: `${lines.join("\n\n")}\n\nOpen: ${n.url}\n\n--\n${footer}\nUnsubscribe from these emails: ${n.unsubscribeUrl}\nNotification settings: ${n.settingsUrl}\n`,
    html,
  };
}

/** The one-time download link of a personal-data archive (decision 170). */
export function dataExportMail(name: string | null, url: string, hours: number): RenderedMail {
  const subject = "Your Diginoor data is ready to download";
  const lines = [
    greeting(name),
    "You asked for a copy of everything Diginoor holds about you. It is ready: one JSON file with your account, wallets, orders, tickets, bids, likes, follows, notifications, mail and consents.",
    `The link works once and expires in ${hours} hours. If you did not ask for this, change your password.`,
  ];
  return {
    subject,
    text: `${lines.join("\n\n")}\n\nDownload: ${url}\n`,
    html: layout(subject, lines, { label: "Download my data", url }),
  };
}

/** The confirmation link of a Google-only account's deletion (decision 170). */
export function confirmDeletionMail(name: string | null, url: string, hours: number): RenderedMail {
  const subject = "Confirm the deletion of your Diginoor account";
  const lines = [
    greeting(name),
    "You asked to delete your Diginoor account. Deleting it signs you out everywhere, unlinks your wallets and erases your name, email, phone, pictures and handle. Orders and on-chain records are kept, no longer linked to you.",
    `The link works once and expires in ${hours} hour${hours === 1 ? "" : "s"}. If you did not ask for this, ignore this email: nothing changes.`,
  ];
  return {
    subject,
    text: `${lines.join("\n\n")}\n\nDelete my account: ${url}\n`,
    html: layout(subject, lines, { label: "Delete my account", url }),
  };
}
