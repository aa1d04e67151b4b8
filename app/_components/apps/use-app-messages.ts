"use client";
/** The chat's end of app messages: a message the user let an app send arrives here as text to send. */
import { useEffect, useRef } from "react";
import { APP_MESSAGE_EVENT } from "./tool-app";

/** Call `send` with each confirmed app message while the chat is mounted. */
export function useAppMessages(send: (text: string) => void): void {
  const latest = useRef(send);
  latest.current = send;
  useEffect(() => {
    const listener = (event: Event) => {
      const text = (event as CustomEvent<{ text?: unknown }>).detail?.text;
      if (typeof text === "string" && text.trim()) latest.current(text);
    };
    window.addEventListener(APP_MESSAGE_EVENT, listener);
    return () => window.removeEventListener(APP_MESSAGE_EVENT, listener);
  }, []);
}
