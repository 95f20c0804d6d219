// Preloaded with `node --import` by test/tracing/sdk-loading.test.ts: appends the URL of every
// OpenTelemetry module the process resolves (import or require) to the file named by
// RECORD_LOADS_FILE, so the test can tell what a gateway loaded.

import { appendFileSync } from 'node:fs';
import { registerHooks } from 'node:module';

const file = process.env.RECORD_LOADS_FILE;
if (file) {
  registerHooks({
    resolve(specifier, context, nextResolve) {
      const resolved = nextResolve(specifier, context);
      if (resolved.url.includes('/@opentelemetry/')) appendFileSync(file, `${resolved.url}\n`);
      return resolved;
    },
  });
}
