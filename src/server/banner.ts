// What `npm start` prints once the gateway is up: where to go, the provider sandboxes, the merchant
// accounts (each marked sandbox or not), the provider rules assumed and the demo clients' keys.

import type { Gateway } from './gateway.js';

/** The start banner's lines, for a person to read. */
export function bannerLines(g: Gateway): string[] {
  const lines = [
    '',
    `  Payments gateway ready (${g.config.env}, ${g.db.kind === 'pglite' ? `embedded PGlite in ${g.config.dataDir}` : 'PostgreSQL'})`,
    '',
    `  GraphiQL        ${g.graphqlUrl}${g.config.graphql.graphiql ? '' : '  (disabled)'}`,
    `  GraphQL (POST)  ${g.graphqlUrl}`,
    `  graphql-ws      ${g.wsUrl}`,
    `  Health          ${g.url}/healthz  ${g.url}/readyz`,
    `  Metrics         ${g.metricsUrl}${g.config.metrics.token ? '  (Authorization: Bearer <METRICS_TOKEN>)' : ''}`,
  ];
  // Served whenever NODE_ENV is not production (src/server/examples.ts).
  if (g.config.env !== 'production') lines.push(`  Example cashier ${g.url}/examples/cashier`);
  const sandboxes = [...g.sandboxes.running()];
  if (sandboxes.length > 0) lines.push('', '  Provider sandboxes (docs/sandbox.md: test cards, amounts and outcomes):');
  for (const [provider, sandbox] of sandboxes) {
    const notes = [g.config.sandbox.ports[provider]?.variable, sandbox.banner?.note].filter(Boolean).join('; ');
    lines.push(`    ${provider.padEnd(24)} ${sandbox.banner?.url ?? sandbox.baseUrl}${notes ? `  (${notes})` : ''}`);
  }
  if (sandboxes.length > 0 && g.config.sandbox.stateDir) lines.push(`    ${'state'.padEnd(24)} ${g.config.sandbox.stateDir}`);
  lines.push('', ...accountLines(g));
  if (g.providerAssumptions.length > 0) {
    lines.push('', '  Provider rules assumed (docs/provider-assumptions.md):');
    for (const line of g.providerAssumptions) lines.push(`    ${line}`);
  }
  if (g.demoClients.length > 0) {
    lines.push('', '  Demo clients (development only; keys kept in the data directory):');
    for (const client of g.demoClients) {
      const access = client.key !== null ? `Authorization: Bearer ${client.key}` : `revoked ${client.revokedAt?.toISOString() ?? ''}; its history is kept (delete the data directory for a fresh set)`;
      lines.push(`    ${client.name.padEnd(24)} ${client.roles.join(',').padEnd(8)} ${access}`);
    }
  }
  lines.push('');
  return lines;
}

/**
 * Each merchant account: its code, provider and mode, and whether a local sandbox serves it. A
 * sandbox account in live mode says so in capitals: it takes what only live accounts may (hosted
 * checkout) and still moves no real money.
 */
function accountLines(g: Gateway): string[] {
  const accounts = g.config.merchantAccounts;
  const everySandbox = accounts.every((account) => account.sandbox);
  const lines = [`  Merchant accounts${everySandbox ? ' (all served by the local provider sandboxes: no real money moves)' : ''}:`];
  for (const account of accounts) {
    const mode = account.livemode ? 'live' : 'test';
    const where = account.sandbox
      ? account.livemode
        ? `SANDBOX, live mode simulated at ${account.baseUrl} (no real money)`
        : `sandbox at ${account.baseUrl}`
      : `${originOf(account.baseUrl)}${account.livemode ? '  (REAL MONEY)' : ''}`;
    lines.push(`    ${account.code.padEnd(16)} ${account.provider.padEnd(16)} ${mode.padEnd(5)} ${where}`);
  }
  return lines;
}

/** The scheme and host of a provider address, without its path. */
function originOf(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return url;
  }
}
