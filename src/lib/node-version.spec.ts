import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { nodeVersionProblem as buildScriptProblem } from '../cli/build-if-stale.mjs';
import { compareVersions, nodeVersionProblem, REQUIRED_NODE_VERSION } from './node-version.js';

const root = path.resolve(import.meta.dirname, '../..');

describe('the Node.js version every entry point requires', () => {
  it("is package.json's engines.node", () => {
    const { engines } = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { engines: { node: string } };
    expect(engines.node).toBe(`>=${REQUIRED_NODE_VERSION}`);
  });

  it('compares versions part by part, as numbers', () => {
    expect(compareVersions('22.17.0', '22.17.0')).toBe(0);
    expect(compareVersions('v22.9.0', '22.17.0')).toBeLessThan(0);
    expect(compareVersions('22.17.1', '22.17.0')).toBeGreaterThan(0);
    expect(compareVersions('24.0.0', '22.17.0')).toBeGreaterThan(0);
    expect(compareVersions('20.20.2', '22.17.0')).toBeLessThan(0);
  });

  it('refuses an older one in one line naming the version found and the one needed; the build script says the same', () => {
    for (const found of ['20.20.2', '22.16.0', 'v18.19.1']) {
      const problem = nodeVersionProblem(found);
      expect(problem).toMatch(new RegExp(`^Node\\.js ${found.replace(/^v/, '').replaceAll('.', '\\.')} is too old: the gateway needs Node\\.js ${REQUIRED_NODE_VERSION.replaceAll('.', '\\.')} or newer`));
      expect(problem).not.toContain('\n');
      expect(buildScriptProblem(root, found)).toBe(problem);
    }
    for (const found of [REQUIRED_NODE_VERSION, '22.23.3', '24.1.0']) {
      expect(nodeVersionProblem(found)).toBeUndefined();
      expect(buildScriptProblem(root, found)).toBeUndefined();
    }
  });
});
