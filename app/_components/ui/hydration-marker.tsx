"use client";

import { useEffect } from "react";

/** Marks `<html data-hydrated>` once React has hydrated, so browser tests never click a dead form. */
export function HydrationMarker() {
  useEffect(() => {
    document.documentElement.dataset.hydrated = "true";
  }, []);
  return null;
}
