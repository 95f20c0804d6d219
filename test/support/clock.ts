// A clock a test moves forward by hand, for the gateway's retention windows (startTestGateway's
// `clock`): it starts at the real time and keeps pace with it, plus what the test added.

import type { Clock } from '../../src/lib/clock.js';

export class ManualClock implements Clock {
  private offsetMs = 0;

  now(): Date {
    return new Date(Date.now() + this.offsetMs);
  }

  /** Moves the clock forward by `ms`. */
  advance(ms: number): void {
    this.offsetMs += ms;
  }
}
