// The QR gateway sandbox's part of the sandbox cheat sheet (docs/sandbox.md): its dashboard and how
// a Thai QR deposit is paid, failed or left to expire. Every value is read from the code it runs,
// the gateway's status for each from the adapter's mapping (so this lives with the docs, not the sandbox).

import { DEFAULT_EXPIRY_SECONDS, EXPIRY_BOUNDS_SECONDS, QR_CODES_PATH, REFUND_EVENT_STATUS } from '../../providers/qr-gateway/assumptions.js';
import { depositStatusFor } from '../../providers/qr-gateway/mapping.js';
import type { SandboxCheatSheet } from './types.js';

const code = (value: string): string => `\`${value}\``;

export function qrGatewayCheatSheet(defaultAccounts: ReadonlyArray<{ code: string; livemode: boolean }>): SandboxCheatSheet {
  const accounts = defaultAccounts.map((account) => code(account.code)).join(' and ');
  return {
    addresses: [
      { path: QR_CODES_PATH, what: `Its API, which the gateway calls for ${accounts}` },
      { path: '/dashboard', what: 'Its merchant dashboard: simulate a payment (success or failure), refund a paid code, withdraw from the balance; test keys only' },
      { path: '/healthz', what: 'Its health' },
    ],
    sections: [
      [
        '### QR gateway: Thai QR outcomes',
        '',
        'A THAI_QR deposit (`createQrCode`) stays pending until its payer acts, which the sandbox simulates on test accounts only (a live key cannot):',
        '',
        '| To get | Do | Deposit status |',
        '| --- | --- | --- |',
        `| Paid | \`simulateQrPayment(input: { depositId, outcome: SUCCEEDED })\` with the admin key, or "Simulate payment" (success) on the dashboard | ${code(depositStatusFor('succeeded'))} |`,
        `| Failed | \`simulateQrPayment(input: { depositId, outcome: FAILED })\`, or "Simulate payment" (failure) on the dashboard | ${code(depositStatusFor('failed'))} |`,
        `| Expired | Leave it unpaid past its lifetime: \`expiresInSeconds\`, ${EXPIRY_BOUNDS_SECONDS.min} to ${EXPIRY_BOUNDS_SECONDS.max}, default ${DEFAULT_EXPIRY_SECONDS} (on the sandbox's clock: \`SANDBOX_TIME_SCALE=0.01\` with \`expiresInSeconds: ${EXPIRY_BOUNDS_SECONDS.min}\` expires in ${(EXPIRY_BOUNDS_SECONDS.min * 0.01).toFixed(1)} s) | ${code(depositStatusFor('failed', 'expired'))} |`,
        '',
        `The QR gateway's API has no refunds: a paid code is refunded on the dashboard ("Refund", outcome completed or failed), which reaches the gateway as an event (${Object.entries(REFUND_EVENT_STATUS).map(([event, status]) => `${code(event)} → ${code(status)}`).join(', ')}). Withdrawals from the balance are made there too.`,
        '',
      ].join('\n'),
    ],
  };
}
