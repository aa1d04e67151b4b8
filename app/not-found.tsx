import Link from "next/link";

/**
 * An address that is no page of the app (signed in or not): says so and offers the way in, instead
 * of the framework's bare "404". Pages inside a workspace have their own (app/(app)/not-found.tsx).
 */
export default function NotFound() {
  return (
    <main className="mx-auto w-full max-w-xl p-4 sm:p-8" data-testid="not-found">
      <h1 className="mb-3 text-lg font-semibold">Nothing here</h1>
      <p className="mb-3 text-sm">This address is not a page of Switchboard.</p>
      <p className="text-sm">
        <Link className="text-primary underline" href="/">
          Go to Switchboard
        </Link>
      </p>
    </main>
  );
}
