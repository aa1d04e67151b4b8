/**
 * How guessable a password is, with zxcvbn-ts and the common-password list it ships
 * (`@zxcvbn-ts/language-common`: passwords from public breach corpora; nothing goes over the network).
 * The same rule runs on the server (lib/security/password.ts refuses) and in the browser (the
 * strength meter, app/_components/ui/password-meter.tsx, shows it while typing).
 */
import { type ZxcvbnResult, ZxcvbnFactory } from "@zxcvbn-ts/core";
import { adjacencyGraphs, dictionary } from "@zxcvbn-ts/language-common";

/** A password's strength: zxcvbn's score (0 weakest … 4), whether it is a common/breached one, and a hint. */
export interface PasswordStrength {
  score: 0 | 1 | 2 | 3 | 4;
  common: boolean;
  hint: string;
}

let factory: ZxcvbnFactory | undefined;
// Built on first use: the dictionaries are ranked into maps once, not at import.
const scorer = () => (factory ??= new ZxcvbnFactory({ dictionary, graphs: adjacencyGraphs }));

const common = new Set(dictionary["passwords-common"]);

// zxcvbn-ts names its warnings by key; translations ship in a language package we do not need.
const HINTS: Record<string, string> = {
  topTen: "It is one of the most used passwords.",
  topHundred: "It is one of the most used passwords.",
  common: "It is a commonly used password.",
  similarToCommon: "It is a common password with a small change.",
  wordByItself: "A single word is easy to guess.",
  namesByThemselves: "A name by itself is easy to guess.",
  commonNames: "Common names are easy to guess.",
  straightRow: "A row of keys is easy to guess.",
  keyPattern: "A keyboard pattern is easy to guess.",
  simpleRepeat: "Repeated characters are easy to guess.",
  extendedRepeat: "Repeated character patterns are easy to guess.",
  sequences: "Sequences like abc or 123 are easy to guess.",
  recentYears: "Recent years are easy to guess.",
  dates: "Dates are easy to guess.",
  userInputs: "It contains your name or email.",
};

/** Score `password`; `userInputs` (the person's email, name) count as words an attacker would try first. */
export function passwordStrength(password: string, userInputs: string[] = []): PasswordStrength {
  // Whole inputs and their words: "maria.gonzalez@example.com" makes "maria" and "gonzalez" guessable too.
  const words = userInputs.flatMap((input) => [
    input,
    ...input
      .toLowerCase()
      .split(/[^\p{L}\p{N}]+/u)
      .filter((w) => w.length > 2),
  ]);
  const result: ZxcvbnResult = scorer().check(password.slice(0, 256), words);
  const score = result.score as PasswordStrength["score"];
  const warning = result.feedback.warning ?? "";
  return {
    score,
    common: common.has(password.trim().toLowerCase()) || (score <= 1 && mostlyCommon(result, password.length)),
    hint: HINTS[warning] ?? (score < 2 ? "Add more words or characters." : ""),
  };
}

// A weak password that is mostly one or more common passwords ("Password123!", "football1234").
function mostlyCommon(result: ZxcvbnResult, length: number): boolean {
  const covered = result.sequence
    .filter((match) => match.pattern === "dictionary" && match.dictionaryName === "passwords-common")
    .reduce((sum, match) => sum + match.token.length, 0);
  return covered * 2 >= length;
}
