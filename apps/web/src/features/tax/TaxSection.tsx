import { formatInr } from "@diginoor/api/money";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useEffect, useState } from "react";
import { messageOf } from "../../lib/api.ts";
import { Button } from "../../ui/Button.tsx";
import { QueryState } from "../../ui/QueryState.tsx";
import { Skeleton } from "../../ui/Skeleton.tsx";
import { useToast } from "../../ui/Toast.tsx";
import {
  getTaxProfile,
  listStatements,
  statementUrl,
  type TaxProfile,
  taxProfileKey,
  taxYearsKey,
  updateTaxProfile,
} from "./api.ts";
import "./tax.css";

/** "2026-27" → "1 Apr 2026 – 31 Mar 2027". */
function yearSpan(fy: string) {
  const y = Number(fy.slice(0, 4));
  return `1 Apr ${y} – 31 Mar ${y + 1}`;
}

/**
 * Tax (India), decision 176: the declared tax residence and, for Indian residents, the yearly tax
 * statements (purchases, sales, s.194S TDS, acquisition costs) as CSV and PDF downloads.
 */
export function TaxSection() {
  const profile = useQuery({ queryKey: taxProfileKey, queryFn: ({ signal }) => getTaxProfile(signal) });
  return (
    <section className="profile-card tax-card" id="tax" aria-labelledby="tax-title">
      <h2 className="profile-card__title" id="tax-title">
        Tax (India)
      </h2>
      <p className="profile-card__lead">
        If you are an Indian tax resident, we keep a record of every NFT you buy and sell, in rupees at the
        day's rate, with the TDS of section 194S on your sales, and give you a statement for each financial
        year (April to March). We do not ask for your PAN.
      </p>
      <QueryState
        query={profile}
        loading={<Skeleton height="6rem" />}
        error={<p className="profile-card__lead">We couldn't load your tax settings.</p>}
      >
        {(data) => (
          <>
            <ResidenceForm profile={data} />
            {data.residence === "india" ? <Statements /> : null}
          </>
        )}
      </QueryState>
    </section>
  );
}

function ResidenceForm({ profile }: { profile: TaxProfile }) {
  const queryClient = useQueryClient();
  const toast = useToast();
  const [residence, setResidence] = useState(profile.residence ?? "");
  const [specified, setSpecified] = useState(profile.specifiedPerson);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    setResidence(profile.residence ?? "");
    setSpecified(profile.specifiedPerson);
  }, [profile]);
  const save = useMutation({
    mutationFn: updateTaxProfile,
    onSuccess: (data) => {
      queryClient.setQueryData(taxProfileKey, data);
      void queryClient.invalidateQueries({ queryKey: taxYearsKey });
      void queryClient.invalidateQueries({ queryKey: ["tds-preview"] });
      toast.success("Tax residence saved");
    },
    onError: (err) => toast.error(messageOf(err, "Something Went Wrong")),
  });
  const changed = residence !== (profile.residence ?? "") || specified !== profile.specifiedPerson;
  function submit(e: FormEvent) {
    e.preventDefault();
    if (residence !== "india" && residence !== "elsewhere")
      return setError("Choose where you are a tax resident");
    setError(null);
    save.mutate({ residence, specifiedPerson: specified });
  }
  return (
    <form className="tax-form" onSubmit={submit} noValidate>
      <fieldset className="tax-choice" aria-describedby={error ? "tax-residence-error" : undefined}>
        <legend className="tax-choice__legend">Tax residence</legend>
        {(
          [
            ["india", "India"],
            ["elsewhere", "Elsewhere"],
          ] as const
        ).map(([value, label]) => (
          <label key={value} className="tax-choice__option">
            <input
              type="radio"
              name="residence"
              value={value}
              checked={residence === value}
              onChange={() => setResidence(value)}
            />
            <span>{label}</span>
          </label>
        ))}
        {error ? (
          <p className="tax-form__error" id="tax-residence-error" role="alert">
            {error}
          </p>
        ) : null}
      </fieldset>
      {residence === "india" ? (
        <label className="tax-check">
          <input type="checkbox" checked={specified} onChange={(e) => setSpecified(e.target.checked)} />
          <span>
            I am a <strong>specified person</strong> under section 194S: an individual or HUF whose business
            or profession does not need a tax audit (no TDS until my sales in a year pass ₹50,000; otherwise
            ₹10,000)
          </span>
        </label>
      ) : null}
      <div className="profile-card__actions">
        <Button type="submit" variant="secondary" loading={save.isPending} disabled={!changed}>
          SAVE TAX RESIDENCE
        </Button>
      </div>
    </form>
  );
}

function Statements() {
  const years = useQuery({ queryKey: taxYearsKey, queryFn: ({ signal }) => listStatements(signal) });
  return (
    <>
      <h3 className="profile-card__subtitle" id="tax-statements-title">
        Tax statements
      </h3>
      <p className="profile-card__lead">
        Each statement lists your purchases and sales of the year, the TDS on your sales and what each sold
        token cost you.
      </p>
      <QueryState
        query={years}
        loading={<Skeleton height="4rem" />}
        error={<p className="profile-card__lead">We couldn't load your statements.</p>}
      >
        {(data) => (
          <ul className="tax-years" aria-labelledby="tax-statements-title">
            {data.items.map((y) => (
              <li key={y.financialYear} className="tax-year">
                <div className="tax-year__what">
                  <strong>FY {y.financialYear}</strong>
                  <span className="tax-year__span">{yearSpan(y.financialYear)}</span>
                  <span className="tax-year__facts">
                    {y.purchases} {y.purchases === 1 ? "purchase" : "purchases"} · {y.sales}{" "}
                    {y.sales === 1 ? "sale" : "sales"} · TDS {formatInr(BigInt(y.tdsPaise))}
                  </span>
                </div>
                <div className="tax-year__links">
                  <a className="tax-download" href={statementUrl(y.financialYear, "pdf")} download>
                    PDF
                  </a>
                  <a className="tax-download" href={statementUrl(y.financialYear, "csv")} download>
                    CSV
                  </a>
                </div>
              </li>
            ))}
          </ul>
        )}
      </QueryState>
    </>
  );
}
