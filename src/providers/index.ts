// The one composition point of providers: the built-in ones, in the order a rail served by several
// is offered, each with its sandbox. Adding a provider is adding its folder and one line here (or,
// for a gateway of its own, passing its definition to startGateway). Nothing else in src/ names a provider.

import { depositGatewaySandbox } from '../sandbox/deposit-gateway/hook.js';
import { qrGatewaySandbox } from '../sandbox/qr-gateway/hook.js';
import { depositGatewayProvider } from './deposit-gateway/definition.js';
import { qrGatewayProvider } from './qr-gateway/definition.js';
import { ProviderRegistry, type ProviderDefinition, type ProviderSandbox } from './registry.js';

export const BUILT_IN_PROVIDERS: readonly ProviderDefinition[] = [withSandbox(depositGatewayProvider, depositGatewaySandbox), withSandbox(qrGatewayProvider, qrGatewaySandbox)];

/** The built-in providers and, after them, a gateway's own. */
export function providerRegistry(extra: readonly ProviderDefinition[] = []): ProviderRegistry {
  return new ProviderRegistry(BUILT_IN_PROVIDERS).with(extra);
}

/**
 * A built-in definition with its sandbox. The sandbox lives apart (src/sandbox/<name>/) and imports
 * its provider's assumptions, so the definition importing it would make the two import each other;
 * they meet here. The sandbox may read a part of the provider's settings, never more.
 */
function withSandbox<Read extends object, S extends Read>(definition: ProviderDefinition<S>, sandbox: ProviderSandbox<Read>): ProviderDefinition<S> {
  return { ...definition, sandbox };
}
