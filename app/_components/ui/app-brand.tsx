/** The app's name with its icon, linking to the chat. */
export function AppBrand() {
  return (
    <a href="/chat" className="flex shrink-0 items-center gap-2 font-semibold">
      {/* biome-ignore lint/performance/noImgElement: a 20 px static SVG; next/image adds nothing */}
      <img src="/icon.svg" alt="" width={20} height={20} />
      <span>Switchboard</span>
    </a>
  );
}
