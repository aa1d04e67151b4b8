import { AppBrand } from "@/app/_components/ui/app-brand";

export default function AuthLayout({ children }: { children: React.ReactNode }) {
  return (
    <main className="flex min-h-dvh items-center justify-center p-4 sm:p-6">
      <div className="w-full max-w-sm rounded-xl border border-border bg-surface p-6 shadow-sm">
        <h1 className="mb-6 text-xl">
          <AppBrand />
        </h1>
        {children}
      </div>
    </main>
  );
}
