// The layers of DESIGN.md "Architecture", checked on the source itself: imports go only downward
// (transport -> API -> domain -> kernel -> providers, db, lib), and neither files nor modules
// import each other in circles. Type-only imports count: a circle of types is still a circle of ideas.

import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '..');
const SRC = path.join(ROOT, 'src');

/** A module's GraphQL files are the API layer; the rest of the module is its domain. */
const API_FILE = /\.(resolver|types|inputs|payloads|node)\.ts$/;

/**
 * Lower rank: higher layer. A file may import files of its own rank or a greater one.
 * - 0 transport and tools: the HTTP server, the process entry points, scripts, generated docs;
 * - 1 composition: the one place that wires modules and adapters together (services, entities);
 * - 2 API: src/graphql and each module's resolvers and GraphQL types;
 * - 3 domain: src/modules;
 * - 4 kernel: what every money operation uses (transitions, inbox, event log, jobs, idempotency);
 * - 5 providers and their sandboxes, the database, configuration;
 * - 6 lib.
 */
const LAYERS: Array<{ name: string; rank: number; matches: (file: string) => boolean }> = [
  { name: 'transport', rank: 0, matches: (file) => /^(server|cli|scripts|docs)\//.test(file) || file === 'main.ts' },
  { name: 'composition', rank: 1, matches: (file) => file === 'services.ts' || file === 'entities.ts' },
  { name: 'api', rank: 2, matches: (file) => file.startsWith('graphql/') || (file.startsWith('modules/') && API_FILE.test(file)) },
  { name: 'domain', rank: 3, matches: (file) => file.startsWith('modules/') },
  { name: 'kernel', rank: 4, matches: (file) => file.startsWith('kernel/') },
  { name: 'providers, db, config', rank: 5, matches: (file) => /^(providers|sandbox|db|config)\//.test(file) || file === 'config.ts' },
  { name: 'lib', rank: 6, matches: (file) => file.startsWith('lib/') },
];

function layerOf(file: string): { name: string; rank: number } {
  const layer = LAYERS.find((candidate) => candidate.matches(file));
  if (!layer) throw new Error(`src/${file} is in no layer: add its folder to LAYERS`);
  return layer;
}

/**
 * The module a file belongs to: a domain module's folder (its API files apart, as they sit one
 * layer up), the schema assembly (src/graphql/schema, which names every module's resolvers), one
 * provider or sandbox, or a top-level folder or file.
 */
function unitOf(file: string): string {
  const parts = file.split('/');
  if (parts[0] === 'modules') return `modules/${parts[1]}${API_FILE.test(file) ? ' (API)' : ''}`;
  if (parts[0] === 'graphql' && parts[1] === 'schema') return 'graphql/schema';
  if (parts[0] === 'providers' || parts[0] === 'sandbox') return parts.length > 2 ? `${parts[0]}/${parts[1]}` : file;
  return parts.length > 1 ? parts[0]! : file;
}

/** The gateway's own source: not the unit specs, nor the fixtures only they use (neither is built into dist/). */
function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return /\.(ts|mts)$/.test(entry.name) && !/\.(spec\.ts|fixture\.ts|d\.mts)$/.test(entry.name) ? [full] : [];
  });
}

/** Every relative import of every source file, as paths relative to src/. */
function importGraph(): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const full of sourceFiles(SRC)) {
    const file = path.relative(SRC, full);
    const imports = ts.preProcessFile(readFileSync(full, 'utf8'), true, true).importedFiles.map((imported) => imported.fileName);
    const targets = imports
      .filter((name) => name.startsWith('.'))
      .map((name) => path.relative(SRC, path.resolve(path.dirname(full), name)).replace(/\.js$/, '.ts').replace(/\.mjs$/, '.mts'));
    graph.set(file, [...new Set(targets)]);
  }
  return graph;
}

/** The strongly connected components of more than one node (Tarjan): each is a circle. */
function circles(graph: Map<string, Iterable<string>>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (node: string): void => {
    index.set(node, next);
    low.set(node, next);
    next++;
    stack.push(node);
    onStack.add(node);
    for (const target of graph.get(node) ?? []) {
      if (!index.has(target)) {
        visit(target);
        low.set(node, Math.min(low.get(node)!, low.get(target)!));
      } else if (onStack.has(target)) low.set(node, Math.min(low.get(node)!, index.get(target)!));
    }
    if (low.get(node) === index.get(node)) {
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      if (component.length > 1) found.push(component.sort());
    }
  };
  for (const node of graph.keys()) if (!index.has(node)) visit(node);
  return found;
}

const graph = importGraph();

describe('the layers of src/', () => {
  it('reads a real graph: every import resolves to a source file', () => {
    const files = new Set(graph.keys());
    expect(files.size).toBeGreaterThan(100);
    const unresolved = [...graph].flatMap(([file, targets]) => targets.filter((target) => !files.has(target) && !target.endsWith('.d.mts')).map((target) => `${file} -> ${target}`));
    expect(unresolved).toEqual([]);
  });

  it('imports only downward: transport -> composition -> API -> domain -> kernel -> providers, db, config -> lib', () => {
    const upward = [...graph].flatMap(([file, targets]) =>
      targets
        .filter((target) => graph.has(target) && layerOf(target).rank < layerOf(file).rank)
        .map((target) => `${file} (${layerOf(file).name}) imports ${target} (${layerOf(target).name})`),
    );
    expect(upward).toEqual([]);
  });

  it('has no file that imports itself through others', () => {
    expect(circles(graph)).toEqual([]);
  });

  /** The import graph between units, each file in the unit `unit` names. */
  const unitGraph = (unit: (file: string) => string) => {
    const units = new Map<string, Set<string>>();
    for (const [file, targets] of graph) {
      const from = unit(file);
      const edges = units.get(from) ?? new Set<string>();
      for (const target of targets) if (graph.has(target) && unit(target) !== from) edges.add(unit(target));
      units.set(from, edges);
    }
    return units;
  };

  it('has no module that imports itself through others', () => {
    expect(circles(unitGraph(unitOf))).toEqual([]);
  });

  it('has no two domain modules that import each other, directly or through other modules, their API files counted with them', () => {
    const moduleOf = (file: string) => (file.startsWith('modules/') ? file.split('/')[1]! : '');
    const modules = new Map([...unitGraph(moduleOf)].filter(([from]) => from !== '').map(([from, to]) => [from, [...to].filter((target) => target !== '')]));
    expect(circles(modules)).toEqual([]);
  });

  it('keeps the kernel free of subject kinds: it imports no module', () => {
    const kernelImports = [...graph].filter(([file]) => file.startsWith('kernel/')).flatMap(([file, targets]) => targets.filter((target) => target.startsWith('modules/')).map((target) => `${file} -> ${target}`));
    expect(kernelImports).toEqual([]);
  });

  it('keeps the kernel free of subject kinds: its code names none (modules declare theirs as data)', async () => {
    const { SUBJECT_TYPES } = await import('../src/kernel/visibility.fixture.js');
    const kinds = [...SUBJECT_TYPES, 'chargeback', 'qr_code'];
    const naming = [...graph.keys()]
      .filter((file) => file.startsWith('kernel/'))
      .flatMap((file) => [...new Set(wordsIn(readFileSync(path.join(SRC, file), 'utf8'), kinds))].map((kind) => `src/${file} names ${kind}`));
    expect(naming).toEqual([]);
    expect(wordsIn("// deposit\nconst a = 'deposit_id', b = `${x}:refund`;", kinds)).toEqual(['refund']);
  });
});

/** The words of `words` written in a file's code: as whole words of its string and template literals; comments are prose. */
function wordsIn(text: string, words: readonly string[]): string[] {
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isStringLiteralLike(node) || ts.isTemplateLiteralToken(node)) found.push(...words.filter((word) => new RegExp(`\\b${word}\\b`).test(node.text)));
    ts.forEachChild(node, visit);
  };
  visit(ts.createSourceFile('file.ts', text, ts.ScriptTarget.Latest, true));
  return found;
}

/**
 * Where a built-in provider may be named in src/ (DESIGN.md "Provider registry": nothing outside
 * its folder, the sandbox and one composition point names a provider), each with its reason.
 */
const MAY_NAME_PROVIDERS: Array<{ matches: (file: string) => boolean; why: string }> = [
  { matches: (file) => /^providers\/[^/]+\//.test(file), why: "a provider's own folder" },
  { matches: (file) => file.startsWith('sandbox/'), why: 'the sandboxes simulate each provider' },
  { matches: (file) => file === 'providers/index.ts', why: 'the one composition point that lists the built-in providers' },
  { matches: (file) => file.startsWith('docs/cheat-sheets/'), why: "the sandbox cheat sheet's part for each built-in sandbox, read from its code and its adapter's mapping" },
  { matches: (file) => file.startsWith('db/migrations/'), why: 'migrations are history: the first ones wrote the closed list that a later one opens' },
];

/** The provider names written in a file's code: string and template literals, import paths included; comments are prose. */
function providerNamesIn(text: string, names: readonly string[]): string[] {
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isStringLiteralLike(node) || ts.isTemplateLiteralToken(node)) found.push(...names.filter((name) => node.text.includes(name)));
    ts.forEachChild(node, visit);
  };
  visit(ts.createSourceFile('file.ts', text, ts.ScriptTarget.Latest, true));
  return found;
}

describe('the provider registry', () => {
  it('is the only way the rest of src/ knows a provider: no other file names a built-in one', async () => {
    const { BUILT_IN_PROVIDERS } = await import('../src/providers/index.js');
    const names = BUILT_IN_PROVIDERS.map((definition) => definition.name);
    expect(names.length).toBeGreaterThan(1);
    const naming = [...graph.keys()]
      .filter((file) => !MAY_NAME_PROVIDERS.some((place) => place.matches(file)))
      .flatMap((file) => [...new Set(providerNamesIn(readFileSync(path.join(SRC, file), 'utf8'), names))].map((name) => `src/${file} names ${name}`));
    expect(naming).toEqual([]);
  });

  it('finds names in code, not in comments', () => {
    const names = ['acme-pay'];
    expect(providerNamesIn("// acme-pay\nconst a = 'acme-pay';", names)).toEqual(['acme-pay']);
    expect(providerNamesIn('const url = `/webhooks/${x}/acme-pay`;', names)).toEqual(['acme-pay']);
    expect(providerNamesIn('import { x } from "./acme-pay/index.js";', names)).toEqual(['acme-pay']);
    expect(providerNamesIn('/** `webhook:acme-pay/a` */ const b = 1;', names)).toEqual([]);
  });
});

/** The identifiers a file's code uses (comments are prose). */
function identifiersIn(text: string): Set<string> {
  const found = new Set<string>();
  const visit = (node: ts.Node): void => {
    if (ts.isIdentifier(node)) found.add(node.text);
    ts.forEachChild(node, visit);
  };
  visit(ts.createSourceFile('file.ts', text, ts.ScriptTarget.Latest, true));
  return found;
}

/**
 * The kernel's names that carry SQL text (a fragment, a statement, a condition written in SQL).
 * Modules hand the kernel data (src/kernel/sql-intents.ts) and the kernel writes the SQL; only
 * the places below still pass SQL, each with its reason, until they become intents too.
 */
const SQL_CARRIERS = ['SqlPart', 'AppendAlongside', 'CHANGE_MATCHED', 'alongsideMatched', 'allMatched', 'appendWith', 'succeededStatement', 'enqueueStatement', 'FINAL_POSITION_SQL', 'MARK_SQL', 'EVENT_COLUMNS'];
const STILL_PASSING_SQL: Record<string, string[]> = {
};

describe('SQL between the kernel and the modules', () => {
  it('travels as data: no module uses a kernel name that carries SQL text, but the places still listed', () => {
    const using = Object.fromEntries(
      [...graph.keys()]
        .filter((file) => !file.startsWith('kernel/'))
        .map((file) => {
          const identifiers = identifiersIn(readFileSync(path.join(SRC, file), 'utf8'));
          return [file, SQL_CARRIERS.filter((name) => identifiers.has(name))] as const;
        })
        .filter(([, names]) => names.length > 0),
    );
    expect(using).toEqual(STILL_PASSING_SQL);
  });
});

/** Whether `text` calls the event log's `append` (`events.append(…)`, `deps.events.append(…)`, `path.events.append(…)`). */
function appendsEvents(text: string): boolean {
  let found = false;
  const visit = (node: ts.Node): void => {
    if (ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression) && node.expression.name.text === 'append') {
      const target = node.expression.expression;
      if ((ts.isIdentifier(target) && target.text === 'events') || (ts.isPropertyAccessExpression(target) && target.name.text === 'events')) found = true;
    }
    ts.forEachChild(node, visit);
  };
  visit(ts.createSourceFile('file.ts', text, ts.ScriptTarget.Latest, true));
  return found;
}

/**
 * The modules that still append events to the log themselves: none. Every event is appended by
 * the kernel, through the transition path (`apply`, `create`, `record`, `note`).
 */
const STILL_APPENDING_EVENTS: string[] = [];

describe('events of the modules\' subjects', () => {
  it('are appended by the kernel: no module calls the event log\'s append, but the places still listed', () => {
    const appending = [...graph.keys()].filter((file) => !file.startsWith('kernel/') && appendsEvents(readFileSync(path.join(SRC, file), 'utf8'))).sort();
    expect(appending).toEqual(STILL_APPENDING_EVENTS);
    expect(appendsEvents('await deps.events.append(tx, event);')).toBe(true);
    expect(appendsEvents('await transitions.note(tx, kind, input); params.append("a", "b");')).toBe(false);
  });
});

describe('admin-only fields', () => {
  it('are the redaction policies\' alone: no module\'s GraphQL file decides one by asking isAdmin', () => {
    // A field hidden by a resolver's own check would be shown by every path that does not run it
    // (notifications); each subject kind's policy (src/kernel/redaction.ts) is asked instead.
    const deciding = [...graph.keys()].filter((file) => file.startsWith('modules/') && API_FILE.test(file) && identifiersIn(readFileSync(path.join(SRC, file), 'utf8')).has('isAdmin'));
    expect(deciding).toEqual([]);
    expect(identifiersIn('// isAdmin\nconst shown = isAdmin(viewer);').has('isAdmin')).toBe(true);
    expect(identifiersIn('/** isAdmin */ const shown = mayRead(viewer);').has('isAdmin')).toBe(false);
  });
});

describe('the shapes of a deposit', () => {
  // Issue 45: a deposit is the entity, its snapshot, its API node or the input that creates it.
  // Anything else the deposits module holds of one is typed from these (a Pick of the entity),
  // never given a deposit's name of its own (`LockedDeposit`, `DepositFacts`, `DepositRow`, ...).
  const FOUR = { Deposit: 'deposit.entity.ts', DepositSnapshot: 'deposit-snapshot.ts', DepositNode: 'deposit.types.ts', CreateDepositInput: 'deposit.inputs.ts' };
  const isDepositShape = (name: string) => /Deposits?$/.test(name) || /^Deposit(Facts|Rows?|Data|Fields)$/.test(name);

  it('are four: the entity, the snapshot, the API node and the input; no other type, interface or class of the module is named as a deposit', () => {
    const dir = path.join(SRC, 'modules/deposits');
    const declared = readdirSync(dir)
      .filter((name) => name.endsWith('.ts') && !/\.(spec|fixture)\.ts$/.test(name))
      .flatMap((file) => typeNamesIn(readFileSync(path.join(dir, file), 'utf8')).map((name) => ({ name, file })));
    expect(declared.filter(({ name }) => isDepositShape(name)).map(({ name, file }) => `${name} (${file})`)).toEqual([`Deposit (${FOUR.Deposit})`]);
    for (const [name, file] of Object.entries(FOUR)) expect(declared).toContainEqual({ name, file });
    expect(['LockedDeposit', 'TransitionDeposit', 'DepositFacts', 'WrittenDeposits', 'DepositRow', 'PreparedDeposit', 'CardDeposit'].filter(isDepositShape)).toHaveLength(7);
  });
});

/** The names of the classes, interfaces and type aliases a file declares at its top level. */
function typeNamesIn(text: string): string[] {
  return ts
    .createSourceFile('file.ts', text, ts.ScriptTarget.Latest, true)
    .statements.filter((node) => ts.isClassDeclaration(node) || ts.isInterfaceDeclaration(node) || ts.isTypeAliasDeclaration(node))
    .flatMap((node) => (node.name ? [node.name.text] : []));
}

describe('the circle finder', () => {
  it('finds a circle of three and nothing in a chain', () => {
    expect(circles(new Map([['a', ['b']], ['b', ['c']], ['c', ['a']], ['d', ['a']]]))).toEqual([['a', 'b', 'c']]);
    expect(circles(new Map([['a', ['b']], ['b', ['c']], ['c', []]]))).toEqual([]);
  });
});

/** Every file of the repository a reader can open: what git would hold, without installs or builds. */
function repositoryFiles(dir: string = ROOT): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (['node_modules', 'dist', 'coverage'].includes(entry.name) || entry.name.startsWith('.git')) return [];
    const full = path.join(dir, entry.name);
    return entry.isDirectory() ? repositoryFiles(full) : [path.relative(ROOT, full).split(path.sep).join('/')];
  });
}

/** The documents a text cites by name: `DESIGN.md`, `docs/kernel.md`, `spec/qr-gateway.md`, `../sandbox.md`. */
function citedDocuments(text: string): string[] {
  return [...text.matchAll(/(?<![\w/.%}-])((?:\.{1,2}\/)*[\w-]+(?:\/[\w-]+)*\.md)\b/g)].map((match) => match[1]!);
}

describe('the documents the code cites', () => {
  it('are all in the repository, found by their path or, for a bare name, by a file of that name', () => {
    // A comment that sends a reader to a document they cannot open explains nothing. A cited path
    // is matched as a path's end (`spec/qr-gateway.md` is docs/design/spec/qr-gateway.md), and `../`
    // is read as written by the file it is in, so a generated page's relative link counts too.
    const files = repositoryFiles();
    const code = files.filter((file) => /^(src|test|bench|\.ci)\//.test(file) && /\.(ts|mts|mjs|js)$|^\.ci\//.test(file) && !file.includes('__generated__'));
    const missing = code.flatMap((file) =>
      citedDocuments(readFileSync(path.join(ROOT, file), 'utf8'))
        .filter((cited) => {
          const bare = cited.replace(/^(\.{1,2}\/)+/, '');
          return !files.some((candidate) => candidate === bare || candidate.endsWith(`/${bare}`));
        })
        .map((cited) => `${file}: ${cited}`),
    );
    expect(missing).toEqual([]);
    expect(citedDocuments('see DESIGN.md "Inbox" and docs/kernel.md, ../../README.md; not a.mdx, x.md5 or a template\'s %s.md')).toEqual(['DESIGN.md', 'docs/kernel.md', '../../README.md']);
  });
});

/** Every TypeScript file under src/, unit specs included: a spec is read as often as its subject. */
function allSourceFiles(dir: string = SRC): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return allSourceFiles(full);
    return /\.(ts|mts)$/.test(entry.name) && !entry.name.endsWith('.d.mts') ? [full] : [];
  });
}

/** The functions of a file longer than `most` lines, first line to last: declarations, methods, arrows. */
function longFunctions(file: string, text: string, most: number): string[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isFunctionLike(node) && 'body' in node && node.body) {
      const first = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
      const last = source.getLineAndCharacterOfPosition(node.getEnd()).line;
      if (last - first + 1 > most) found.push(`${file}:${first + 1} (${last - first + 1} lines)`);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe('what a newcomer holds in mind', () => {
  // Issue 45's bounds: a file outside the provider sandboxes fits in 400 lines and a function in 120,
  // so that each can be read whole. The sandboxes imitate a provider's whole service and may be
  // longer files, but their functions keep the same bound.
  const files = allSourceFiles().map((full) => ({ file: path.relative(SRC, full).split(path.sep).join('/'), text: readFileSync(full, 'utf8') }));

  it('has no file outside src/sandbox over 400 lines', () => {
    const long = files.filter(({ file, text }) => !file.startsWith('sandbox/') && text.split('\n').length - (text.endsWith('\n') ? 1 : 0) > 400).map(({ file, text }) => `${file} (${text.split('\n').length - 1} lines)`);
    expect(long).toEqual([]);
  });

  it('has no function over 120 lines', () => {
    expect(files.flatMap(({ file, text }) => longFunctions(file, text, 120))).toEqual([]);
    expect(longFunctions('x.ts', `function f() {\n${'  g();\n'.repeat(119)}}\n`, 120)).toHaveLength(1);
    expect(longFunctions('x.ts', `const f = () => {\n${'  g();\n'.repeat(118)}};\n`, 120)).toEqual([]);
  });
});
