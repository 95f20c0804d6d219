// The sandbox's scaled clock: every simulated delay runs through here, so tests can run a day of
// webhook retries in seconds and `idle()` knows when nothing is left to happen.

/** A cancellable scheduled callback. */
export interface TimerHandle {
  cancel(): void;
}

export interface TimerOptions {
  /**
   * Whether `idle()` waits for the timer. Default true. A deadline that may lie far ahead (a payment
   * link's expiry) is not work in progress: `idle()` would otherwise wait for it.
   */
  holdsIdle?: boolean;
}

/** The longest delay setTimeout takes (about 24.8 days); a longer one is waited for in steps. */
const MAX_TIMER_MS = 2 ** 31 - 1;

export class ScaledClock {
  private readonly timers = new Set<NodeJS.Timeout>();
  /** Timers `idle()` does not wait for (`holdsIdle: false`). */
  private readonly deadlines = new Set<NodeJS.Timeout>();
  private busy = 0;
  private waiters: Array<() => void> = [];
  private idleCheckScheduled = false;
  private closed = false;
  /** Called after every timer callback (the sandbox saves its state then). */
  onFire: (() => void) | undefined;

  /** @param timeScale real milliseconds per simulated millisecond: 1 = real time, 0.001 = 1000x faster. */
  constructor(readonly timeScale: number) {
    if (!Number.isFinite(timeScale) || timeScale < 0) throw new RangeError(`timeScale must be a non-negative number; got ${timeScale}`);
  }

  /** Wall-clock time. Timestamps stay real so signatures pass a receiver's freshness check (spec: Authentication, 6). */
  now(): Date {
    return new Date();
  }

  /** Real milliseconds a simulated duration takes. */
  toReal(simulatedMs: number): number {
    return simulatedMs * this.timeScale;
  }

  /** Runs `fn` after a simulated duration. Counts towards `idle()` unless `holdsIdle` is false. */
  after(simulatedMs: number, fn: () => void, options: TimerOptions = {}): TimerHandle {
    return this.afterReal(this.toReal(simulatedMs), fn, options);
  }

  /** Runs `fn` after a real duration (test switches given in real milliseconds). Counts towards `idle()` unless `holdsIdle` is false. */
  afterReal(realMs: number, fn: () => void, options: TimerOptions = {}): TimerHandle {
    const timers = options.holdsIdle === false ? this.deadlines : this.timers;
    let timer: NodeJS.Timeout | undefined;
    const arm = (remainingMs: number): void => {
      if (this.closed) return;
      const step = Math.min(Math.max(0, remainingMs), MAX_TIMER_MS);
      const armed = setTimeout(() => {
        timers.delete(armed);
        if (remainingMs > step) return arm(remainingMs - step);
        try {
          fn();
        } finally {
          this.onFire?.();
          this.scheduleIdleCheck();
        }
      }, step);
      timer = armed;
      timers.add(armed);
    };
    arm(realMs);
    return {
      cancel: () => {
        if (timer === undefined) return;
        clearTimeout(timer);
        if (timers.delete(timer)) this.scheduleIdleCheck();
      },
    };
  }

  /** Marks asynchronous work (an HTTP delivery) as in flight until it settles. */
  track<T>(work: Promise<T>): Promise<T> {
    this.busy += 1;
    return work.finally(() => {
      this.busy -= 1;
      this.scheduleIdleCheck();
    });
  }

  isIdle(): boolean {
    return this.busy === 0 && this.timers.size === 0;
  }

  /** Resolves once no timer is pending and no tracked work is in flight. */
  idle(): Promise<void> {
    return new Promise((resolve) => {
      this.waiters.push(resolve);
      this.scheduleIdleCheck();
    });
  }

  /** Cancels every timer and releases every `idle()` waiter. */
  close(): void {
    this.closed = true;
    for (const timer of [...this.timers, ...this.deadlines]) clearTimeout(timer);
    this.timers.clear();
    this.deadlines.clear();
    this.busy = 0;
    this.releaseWaiters();
  }

  private scheduleIdleCheck(): void {
    if (this.idleCheckScheduled || this.waiters.length === 0) return;
    this.idleCheckScheduled = true;
    // Checked on a later turn so work that schedules follow-up work in the same turn is not missed.
    setImmediate(() => {
      this.idleCheckScheduled = false;
      if (this.isIdle() || this.closed) this.releaseWaiters();
    });
  }

  private releaseWaiters(): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const resolve of waiters) resolve();
  }
}
