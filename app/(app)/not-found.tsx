import Link from "next/link";

/**
 * What a signed-in person sees for a page that is not there: a workspace they do not belong to (or
 * one that was deleted), a chat or server that is gone, a mistyped address. It says the same for
 * each, so it reveals nothing about a workspace the person is not in, and offers the way back.
 */
export default function NotFound() {
  return (
    <div className="mx-auto w-full max-w-xl p-4 sm:p-8" data-testid="not-found">
      <h1 className="mb-3 text-lg font-semibold">Nothing here</h1>
      <p className="mb-3 text-sm">This page does not exist, or it belongs to a workspace you are not a member of or that was deleted.</p>
      <p className="text-sm">
        <Link className="text-primary underline" href="/w/personal/chat">
          Go to your personal workspace
        </Link>
      </p>
    </div>
  );
}
