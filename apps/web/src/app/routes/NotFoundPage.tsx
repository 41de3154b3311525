import { NotFoundContent } from "../../ui/NotFound.tsx";

export function NotFoundPage() {
  return <NotFoundContent />;
}
