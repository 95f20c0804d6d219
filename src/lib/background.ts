// Work started after a response is sent (e.g. reading a provider's details after a webhook):
// tracked, so shutdown can stop taking more and wait for what is running before it closes the
// database under it.

export class BackgroundTasks {
  private readonly running = new Set<Promise<void>>();
  private accepting = true;

  /** Starts `task` unless shutdown has begun. Its failures are the task's own to log. */
  run(task: () => Promise<void>): void {
    if (!this.accepting) return;
    const promise: Promise<void> = task()
      .catch(() => undefined)
      .finally(() => this.running.delete(promise));
    this.running.add(promise);
  }

  /** Tasks still running. */
  get size(): number {
    return this.running.size;
  }

  /** Refuses new tasks and waits for the running ones, at most `timeoutMs`. */
  async drain(timeoutMs: number): Promise<void> {
    this.accepting = false;
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      Promise.allSettled([...this.running]),
      new Promise<void>((resolve) => {
        timer = setTimeout(resolve, timeoutMs);
      }),
    ]);
    clearTimeout(timer);
  }
}
