// Runs the provider sandboxes as a process of their own, so they outlive a gateway that is stopped,
// restarted or killed, and keep retrying their webhooks at it as a real provider would.

import '../cli/require-node.js';
import 'reflect-metadata';
import { loadConfigOrExit } from '../config.js';
import { createLogger } from '../lib/logger.js';
import { providerRegistry } from '../providers/index.js';
import { startSandboxes, type SandboxHost } from '../sandbox/host.js';

/**
 * Usage: `npm run sandboxes` with the gateway's own variables: `MERCHANT_ACCOUNTS` lists the accounts
 * to simulate (`"sandbox": true`, no `baseUrl`), `PUBLIC_URL` (or `PORT`) is the gateway the
 * webhooks go to, `SANDBOX_TIME_SCALE` and `SANDBOX_AUTO_COMPLETE` as for the in-process sandboxes,
 * and like them each on its `<PROVIDER>_SANDBOX_PORT`, with each provider's own settings, and their
 * state under `DATA_DIR` (`SANDBOX_PERSIST`), so a restarted sandbox process still knows its payments.
 *
 * Prints one JSON line on standard output once listening, `{"accounts":[{"code","provider","baseUrl"}]}`:
 * the `baseUrl` to configure for each account in the gateway's `MERCHANT_ACCOUNTS` (keys and secrets
 * are never printed). Stops on SIGTERM or SIGINT. A sandbox of a provider with webhook registration
 * sends events only to registered URLs: run the gateway with that provider's register-webhook
 * setting on (docs/configuration.md) to register its own.
 *
 * Started with an IPC channel (`child_process.fork`), it also answers `{ id, command, args, provider? }`
 * messages with `{ id, result }` or `{ id, error }` so a test can read and steer a sandbox through
 * the commands it takes (`RunningSandbox.command`): the named provider's, or without `provider` the
 * first running sandbox that takes any; and it exits when its parent goes away.
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
  config,
  registry: providerRegistry(),
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
  process.on('message', (message: CommandMessage) => {
    void answer(message).then((reply) => process.send?.(reply));
  });
}

console.log(JSON.stringify({ accounts: accounts.map((account) => ({ code: account.code, provider: account.provider, baseUrl: account.baseUrl })) }));

interface CommandMessage {
  id?: unknown;
  command?: unknown;
  args?: unknown;
  provider?: unknown;
}

async function answer(message: CommandMessage): Promise<{ id: unknown; result?: unknown; error?: string }> {
  const args = Array.isArray(message.args) ? (message.args as unknown[]) : [];
  try {
    const sandbox = typeof message.provider === 'string' ? host.get(message.provider) : [...host.running().values()].find((candidate) => candidate.command !== undefined);
    if (!sandbox?.command) throw new Error(typeof message.provider === 'string' ? `no sandbox of ${message.provider} that takes commands runs here` : 'no sandbox that takes commands runs here');
    return { id: message.id, result: await sandbox.command(String(message.command), args) };
  } catch (error) {
    return { id: message.id, error: error instanceof Error ? error.message : String(error) };
  }
}
