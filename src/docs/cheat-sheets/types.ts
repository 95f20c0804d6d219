// What a sandbox's part of the sandbox cheat sheet (docs/sandbox.md) is.

/** A sandbox's part of the sandbox cheat sheet (docs/sandbox.md), every fact read from the code it runs. */
export interface SandboxCheatSheet {
  /** What a person opens or calls: a path under the sandbox's address, and what it is for. */
  addresses: Array<{ path: string; what: string }>;
  /** Its sections in markdown, each starting with a `###` heading: how to reach each outcome, its test values. */
  sections: string[];
}

/** A sandbox's part, for its provider's default sandbox accounts as the default setup configures them. */
export type CheatSheetOf = (defaultAccounts: ReadonlyArray<{ code: string; livemode: boolean }>) => SandboxCheatSheet;
