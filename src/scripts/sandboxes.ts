// Runs the provider sandboxes as a process of their own, so they outlive a gateway that is stopped,
// restarted or killed, and keep retrying their webhooks at it as a real provider would.

import 'reflect-metadata';
import { loadConfigOrExit } from '../config.js';
import { createLogger } from '../lib/logger.js';
import { startSandboxes, type SandboxHost } from '../sandbox/host.js';

/**
 * Usage: `npm run sandboxes` with the gateway's own variables: `MERCHANT_ACCOUNTS` lists the accounts
 * to simulate (`"sandbox": true`, no `baseUrl`), `PUBLIC_URL` (or `PORT`) is the gateway the
 * webhooks go to, `SANDBOX_TIME_SCALE` and `SANDBOX_AUTO_COMPLETE` as for the in-process sandboxes,
 * and like them on `DEPOSIT_SANDBOX_PORT` / `QR_SANDBOX_PORT` with their state under `DATA_DIR`
 * (`SANDBOX_PERSIST`), so a restarted sandbox process still knows its payments.
 *
 * Prints one JSON line on standard output once listening, `{"accounts":[{"code","provider","baseUrl"}]}`:
 * the `baseUrl` to configure for each account in the gateway's `MERCHANT_ACCOUNTS` (keys and secrets
 * are never printed). Stops on SIGTERM or SIGINT. The QR gateway sandbox sends events only to
 * registered URLs: run the gateway with `QR_REGISTER_WEBHOOK=true` to register its own.
 *
 * Started with an IPC channel (`child_process.fork`), it also answers `{ id, command, args }`
 * messages with `{ id, result }` or `{ id, error }` so a test can read and steer the deposit
 * gateway sandbox: `records`, `failNext` (args: FailNextOptions), `clearFailures`, `requestCount` (args:
 * `[pathPrefix, method]`), `deliveries`, `idle`; and it exits when its parent goes away.
 */
const config = loadConfigOrExit();

const logger = createLogger({ level: config.logLevel });
const accounts = config.merchantAccounts.filter((account) => account.sandbox);
if (accounts.length === 0) {
  console.error('MERCHANT_ACCOUNTS: no account has "sandbox": true, so there is nothing to simulate');
  process.exit(78);
}

const host: SandboxHost = await startSandboxes({
  accounts,
  webhookBaseUrl: config.publicUrl ?? `http://127.0.0.1:${config.port}`,
  timeScale: config.sandbox.timeScale,
  autoComplete: config.sandbox.autoComplete,
  qrAmountUnit: config.providers.qrAmountUnit,
  ports: { deposit: config.sandbox.depositPort, qr: config.sandbox.qrPort },
  stateDir: config.sandbox.stateDir,
  logger,
});

let stopping = false;
async function stop(code: number): Promise<never> {
  if (!stopping) {
    stopping = true;
    await host.close().catch((error: unknown) => logger.error({ err: error }, 'sandboxes did not close cleanly'));
  }
  process.exit(code);
}
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => void stop(0));

if (process.send) {
  // Forked by a test: never outlive it, whatever way it ends.
  process.on('disconnect', () => void stop(0));
  process.on('message', (message: { id?: unknown; command?: unknown; args?: unknown }) => {
    void answer(message).then((reply) => process.send?.(reply));
  });
}

console.log(JSON.stringify({ accounts: accounts.map((account) => ({ code: account.code, provider: account.provider, baseUrl: account.baseUrl })) }));

async function answer(message: { id?: unknown; command?: unknown; args?: unknown }): Promise<{ id: unknown; result?: unknown; error?: string }> {
  const controls = host.depositGateway?.controls;
  const args = Array.isArray(message.args) ? (message.args as unknown[]) : [];
  try {
    if (!controls) throw new Error('no deposit gateway sandbox runs here');
    switch (message.command) {
      case 'records':
        return { id: message.id, result: controls.records() };
      case 'failNext':
        controls.failNext(args[0] as Parameters<typeof controls.failNext>[0]);
        return { id: message.id, result: null };
      case 'clearFailures':
        controls.clearFailures();
        return { id: message.id, result: null };
      case 'requestCount':
        return { id: message.id, result: controls.requestCount(args[0] as string | undefined, args[1] as string | undefined) };
      case 'deliveries':
        return { id: message.id, result: controls.deliveries() };
      case 'idle':
        await controls.idle();
        return { id: message.id, result: null };
      default:
        throw new Error(`unknown command ${JSON.stringify(message.command)}`);
    }
  } catch (error) {
    return { id: message.id, error: error instanceof Error ? error.message : String(error) };
  }
}
