// docs/provider-assumptions.md is the single list of provider assumptions: every constant of an
// assumptions.ts file is listed exactly once with that file in its File column, nothing listed is
// missing from the code, every sandbox `Assumption:` comment has its row, and every A/Q number the
// code cites exists in the list.

import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..');
const DOC = readFileSync(join(ROOT, 'docs', 'provider-assumptions.md'), 'utf8');
const ASSUMPTION_FILES = ['src/providers/deposit-gateway/assumptions.ts', 'src/providers/qr-gateway/assumptions.ts'];

interface Row {
  cells: Record<string, string>;
}

/** Every markdown table of the doc, each row as header → cell text. */
function tables(markdown: string): Row[][] {
  const result: Row[][] = [];
  let header: string[] | undefined;
  let rows: Row[] = [];
  const lines = markdown.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (!line.startsWith('|')) {
      if (header) result.push(rows);
      header = undefined;
      rows = [];
      continue;
    }
    const cells = splitRow(line);
    if (!header) {
      header = cells;
      i++; // the |---| line
      continue;
    }
    rows.push({ cells: Object.fromEntries(header.map((name, index) => [name, cells[index] ?? ''])) });
  }
  if (header) result.push(rows);
  return result;
}

/** Cells of a table row; `\|` inside a cell is not a separator. */
function splitRow(line: string): string[] {
  return line
    .slice(1, line.endsWith('|') ? -1 : undefined)
    .split(/(?<!\\)\|/)
    .map((cell) => cell.trim());
}

const ROWS = tables(DOC).flat();
const fileOf = (row: Row): string => (row.cells.File ?? '').replace(/`/g, '');
const namesIn = (cell: string | undefined): string[] => [...(cell ?? '').matchAll(/`([A-Za-z_][A-Za-z0-9_]*)`/g)].map((match) => match[1]!);

function exportedConstants(file: string): string[] {
  const source = readFileSync(join(ROOT, file), 'utf8');
  return [...source.matchAll(/^export (?:const|function) ([A-Za-z_][A-Za-z0-9_]*)/gm)].map((match) => match[1]!);
}

function sourceFiles(dir: string): string[] {
  return readdirSync(join(ROOT, dir)).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(join(ROOT, path)).isDirectory()) return sourceFiles(path);
    return path.endsWith('.ts') && !path.endsWith('.spec.ts') ? [path] : [];
  });
}

describe('docs/provider-assumptions.md, the single list of assumptions', () => {
  it.each(ASSUMPTION_FILES)('lists every constant of %s exactly once, with that file, and nothing else', (file) => {
    const listed = ROWS.filter((row) => fileOf(row) === file).flatMap((row) => namesIn(row.cells.Constant));
    const exported = exportedConstants(file);
    expect(exported.length).toBeGreaterThan(10);
    expect([...listed].sort(), `constants of ${file} vs rows naming it`).toEqual([...exported].sort());
  });

  it('names a File for every row that names a constant, and every File exists', () => {
    for (const row of ROWS.filter((candidate) => namesIn(candidate.cells.Constant).length > 0 || candidate.cells.File !== undefined)) {
      expect(fileOf(row), JSON.stringify(row.cells)).not.toBe('');
      expect(() => statSync(join(ROOT, fileOf(row))), fileOf(row)).not.toThrow();
    }
  });

  it('has one row per `Assumption:` comment of the code, naming its file', () => {
    const inCode = new Map<string, number>();
    for (const file of sourceFiles('src')) {
      if (ASSUMPTION_FILES.includes(file.split('\\').join('/'))) continue;
      const count = (readFileSync(join(ROOT, file), 'utf8').match(/\bAssumption:/g) ?? []).length;
      if (count > 0) inCode.set(relative(ROOT, join(ROOT, file)).split('\\').join('/'), count);
    }
    const inDoc = new Map<string, number>();
    for (const row of ROWS.filter((candidate) => candidate.cells.Choice !== undefined)) inDoc.set(fileOf(row), (inDoc.get(fileOf(row)) ?? 0) + 1);
    expect(Object.fromEntries([...inDoc].sort())).toEqual(Object.fromEntries([...inCode].sort()));
  });

  it('has a row for every assumption number the code and the docs cite', () => {
    const numbers = new Set(ROWS.map((row) => row.cells['#']).filter((value): value is string => /^[AQS]\d+$/.test(value ?? '')));
    const cited = new Map<string, string>();
    const texts = [...sourceFiles('src'), ...sourceFiles('test'), 'README.md', ...readdirSync(join(ROOT, 'docs')).filter((name) => name.endsWith('.md')).map((name) => `docs/${name}`)];
    for (const file of texts) {
      for (const line of readFileSync(join(ROOT, file), 'utf8').split('\n')) {
        if (!/assumption/i.test(line)) continue;
        for (const match of line.matchAll(/\b([AQ]\d{1,2})\b/g)) cited.set(match[1]!, `${file}: ${line.trim()}`);
      }
    }
    expect(cited.size).toBeGreaterThan(10);
    for (const [number, where] of cited) expect(numbers.has(number), where).toBe(true);
  });
});
