// The deposit gateway's sandbox in a process of its own, as a real provider is elsewhere: neither
// the gateway nor the B1 baseline pays for the provider's side of the calls they make to it.

import { startDepositGatewaySandbox, type DepositGatewaySandbox } from '../src/sandbox/deposit-gateway/index.js';
import type { ApprovedDeposit } from './fixtures.js';
import { serveHarness } from './ipc.js';

export interface SandboxProcessInfo {
  /** The API base, e.g. http://127.0.0.1:PORT/v1: the merchant account's baseUrl. */
  baseUrl: string;
}

const apiKey = process.env.BENCH_SANDBOX_API_KEY ?? '';
const webhookSecret = process.env.BENCH_SANDBOX_WEBHOOK_SECRET ?? '';
let sandbox: DepositGatewaySandbox | undefined;

function running(): DepositGatewaySandbox {
  if (!sandbox) throw new Error('the sandbox is not running');
  return sandbox;
}

const harness = serveHarness(
  {
    /** Where the sandbox sends its own webhooks (a gateway instance's webhook route). */
    setWebhookUrl({ url }: { url: string }) {
      running().controls.setAccount(apiKey, { webhookUrl: url });
      return null;
    },
    /** Off: card payments stay pending until `approve`, and no webhook follows a createDeposit. */
    setAutoComplete({ on }: { on: boolean }) {
      running().controls.setAutoComplete(on);
      return null;
    },
    paymentsCreated: () => running().controls.requestCount('/payments', 'POST'),
    /**
     * Approves the payments of these deposits on the provider's side with the provider's own
     * webhooks dropped: its record then holds fee and net (which the gateway fetches after a
     * webhook), and the only webhook the gateway ever gets for them is the one a bench sends.
     */
    async approveSilently({ depositIds }: { depositIds: string[] }): Promise<ApprovedDeposit[]> {
      const { controls } = running();
      const byDeposit = new Map(controls.records().payments.map((payment) => [payment.merchant_reference, payment]));
      const approved = depositIds.map((id) => {
        const payment = byDeposit.get(id);
        if (!payment) throw new Error(`the sandbox has no payment for deposit ${id}`);
        return { id, reference: payment.reference, amount: payment.amount, currency: payment.currency };
      });
      controls.webhooks({ dropNext: Number.MAX_SAFE_INTEGER });
      try {
        for (const deposit of approved) controls.complete(deposit.reference, 'approved');
        await controls.idle();
      } finally {
        controls.webhooks({ dropNext: 0 });
      }
      return approved;
    },
    /** Resolves when no webhook delivery, retry or simulated timer is pending. */
    idle: () => running().controls.idle(),
  },
  {
    async onExit() {
      await sandbox?.close();
    },
  },
);

async function main(): Promise<void> {
  sandbox = await startDepositGatewaySandbox({ accounts: [{ apiKey, webhookSecret }], autoComplete: false });
  harness.ready({ baseUrl: sandbox.baseUrl } satisfies SandboxProcessInfo);
}

main().catch((error: unknown) => {
  process.stderr.write(`sandbox process failed to start: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
