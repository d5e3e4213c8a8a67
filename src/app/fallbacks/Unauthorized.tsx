import { FallbackPage } from "./FallbackPage.tsx";

export function Unauthorized() {
  return (
    <FallbackPage code="401" title="Sign-in required">
      <p>You need to sign in to see this page.</p>
    </FallbackPage>
  );
}
