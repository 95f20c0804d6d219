// The in-process provider sandboxes as a part of the gateway. They and the API's HTTP server need
// each other: the gateway's calls reach the sandboxes, and the sandboxes deliver webhooks to the
// gateway's address, known only once the server listens (its port may be any free one). So they
// are built before the parts that call them, which closes them after those parts, and started
// with the address once it is known.

import { startSandboxes, type SandboxHost, type StartSandboxesOptions } from '../sandbox/host.js';

export class HostedSandboxes {
  private host: SandboxHost | undefined;

  constructor(private readonly options: Omit<StartSandboxesOptions, 'webhookBaseUrl'>) {}

  /** Starts the sandboxes of the accounts marked `sandbox`, delivering webhooks to `webhookBaseUrl`. */
  async start(webhookBaseUrl: string): Promise<SandboxHost> {
    this.host = await startSandboxes({ ...this.options, webhookBaseUrl });
    return this.host;
  }

  /** Each running sandbox's health over HTTP (/readyz); undefined until they start. */
  health(): Promise<Record<string, 'up' | 'down'>> | undefined {
    return this.host?.health();
  }

  async close(): Promise<void> {
    await this.host?.close();
  }
}
