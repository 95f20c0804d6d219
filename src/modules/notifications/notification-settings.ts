// What the notifications module is configured with (src/config.ts, NOTIFICATION_*): docs/notifications.md.

import type { NotificationsConfig } from '../../config.js';
import { backoffDelayMs } from '../../lib/backoff.js';
import type { OutboundPolicy } from '../../lib/outbound-http.js';

/** The configuration's settings (NOTIFICATION_*), with the outbound policy built from its allowlist. */
export interface NotificationSettings extends Omit<NotificationsConfig, 'allowedDestinations'> {
  /** Which destinations outbound POSTs may reach. */
  policy: OutboundPolicy;
}

/**
 * The wait before retry number `attempt` (1 after the first failure): `base · 2^(attempt-1)`
 * capped at `max`, of which a random half is taken off ("equal jitter"), so endpoints that failed
 * together do not retry in step: 5 s then 10, 20, ... up to an hour, each between half and all of it.
 */
export function notificationRetryDelayMs(attempt: number, settings: Pick<NotificationSettings, 'backoffBaseMs' | 'backoffMaxMs'>, random: () => number = Math.random): number {
  return backoffDelayMs(attempt, { baseMs: settings.backoffBaseMs, maxMs: settings.backoffMaxMs, jitter: 0.5 }, random);
}

/** How long a claim on a delivery keeps other instances off it: longer than the POST may take. */
export function claimLeaseMs(settings: Pick<NotificationSettings, 'timeoutMs'>): number {
  return settings.timeoutMs + Math.max(1_000, Math.round(settings.timeoutMs / 2));
}
