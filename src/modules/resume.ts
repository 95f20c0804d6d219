// What resubmitting an operation whose provider outcome is unknown did: the answer every service's `resume` gives the reconciler.

/**
 * - `submitted`: the provider answered (with the original operation if the first call had reached it);
 *   its reference is recorded as the create path records it.
 * - `refused`: the provider definitely refused; the row moved to its failed status through its transition function.
 * - `unknown`: still no answer (the provider is down, or the row cannot be resubmitted); it stays recoverable.
 * - `not_needed`: the row already has a provider reference or has left its initial status.
 * - `not_found`: no such row.
 */
export interface ResumeResult {
  outcome: 'submitted' | 'refused' | 'unknown' | 'not_needed' | 'not_found';
  /** Starts with a stable code, e.g. `PROVIDER_UNAVAILABLE: …`. */
  reason?: string;
}
