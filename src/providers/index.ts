// The one composition point of providers: the built-in ones, in the order a rail served by several
// is offered. Adding a provider is adding its folder and one line here (or, for a gateway of its
// own, passing its definition to startGateway). Nothing else in src/ names a provider.

import { depositGatewayProvider } from './deposit-gateway/definition.js';
import { qrGatewayProvider } from './qr-gateway/definition.js';
import { ProviderRegistry, type ProviderDefinition } from './registry.js';

export const BUILT_IN_PROVIDERS: readonly ProviderDefinition[] = [depositGatewayProvider, qrGatewayProvider];

/** The built-in providers and, after them, a gateway's own. */
export function providerRegistry(extra: readonly ProviderDefinition[] = []): ProviderRegistry {
  return new ProviderRegistry(BUILT_IN_PROVIDERS).with(extra);
}
