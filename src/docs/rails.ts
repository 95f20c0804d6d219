// The reference pages of every rail, from the registered providers' definitions (each provider's
// `reference`, beside its adapter), in registration order. The examples are checked by validation
// when the pages are generated, and sent to a gateway by test/reference/rail-examples.test.ts.

import { BUILT_IN_PROVIDERS } from '../providers/index.js';
import type { RailPage } from '../providers/reference.js';
import type { ProviderDefinition } from '../providers/registry.js';

export { IN_ONE_HOUR, type RailExample, type RailPage } from '../providers/reference.js';

/** Every rail page, with the provider that contributed it. */
export const PROVIDER_PAGES: ReadonlyArray<{ provider: ProviderDefinition; page: RailPage }> = BUILT_IN_PROVIDERS.flatMap((provider) => (provider.reference?.pages ?? []).map((page) => ({ provider, page })));

export const RAIL_PAGES: readonly RailPage[] = PROVIDER_PAGES.map(({ page }) => page);

/** Code of the live-mode merchant account the examples name (hosted checkout is live only). */
export const LIVE_ACCOUNT_EXAMPLE = BUILT_IN_PROVIDERS.map((provider) => provider.reference?.liveAccountExample).find((code) => code !== undefined) ?? 'live';
