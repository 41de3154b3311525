import type { ReactNode } from "react";
import { useParams } from "react-router";
import { Console, consoleTitle } from "../../features/admin/Console.tsx";
import { RequireAdmin } from "../../lib/account.tsx";
import { useDocumentTitle } from "../../lib/hooks.ts";
import { Skeleton } from "../../ui/Skeleton.tsx";

const consoleFrame = (state: ReactNode) => <div className="container section">{state}</div>;

/**
 * /admin and /admin/:section: the studio console for administrators and studio accounts. Visitors
 * are sent to sign in; other accounts get a 403 page (the API refuses them too).
 */
export function Component() {
  const { section = "films" } = useParams();
  useDocumentTitle(consoleTitle(section));
  return (
    <RequireAdmin
      roles={["admin", "studio"]}
      what="the console"
      frame={consoleFrame}
      loading={
        <div className="container section" aria-busy="true">
          <Skeleton height="3rem" />
          <Skeleton height="20rem" />
        </div>
      }
    >
      {() => <Console sectionPath={section} />}
    </RequireAdmin>
  );
}
