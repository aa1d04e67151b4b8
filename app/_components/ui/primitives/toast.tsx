"use client";
import { Toaster as Sonner, toast } from "sonner";

/** Shows a short feedback message ("Copied", "Saved", an error); call from any client component. */
export { toast };

/** The one toast outlet, mounted once in the root layout; announced politely to screen readers. */
export function Toaster() {
  return <Sonner position="bottom-center" closeButton richColors toastOptions={{ duration: 3000 }} />;
}
