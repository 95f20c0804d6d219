// Imported first by every entry point (npm start, the client and secrets CLIs, the sandboxes): an
// older Node.js stops here, with one line naming the version found and the one needed, before
// any other module's code runs. ES modules run their imports in order, so this import must stay first.

import { nodeVersionProblem } from '../lib/node-version.js';

const problem = nodeVersionProblem(process.versions.node);
if (problem) {
  process.stderr.write(`${problem}\n`);
  process.exit(1);
}
