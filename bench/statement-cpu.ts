// What one statement costs PostgreSQL's CPU, sent as the gateway sends it (unnamed: parsed and
// planned every time) and as a prepared statement (named: parsed once per session), measured on
// the backend of a session of its own from /proc. For deciding, before a bench run, whether a hot
// statement is worth preparing; the database must run on this machine.
//
//   node dist/bench/statement-cpu.js <database url> <count> <sql> [json array of values]
//
// The statement runs `count` times in each form, twice, alternating, in autocommit: give one that
// changes nothing lasting, or run it against a throwaway database (the bench's, say).

import pg from 'pg';
import { isLocalDatabase, processCpuMs } from './database-cpu.js';

const [url, countText, text, valuesText] = process.argv.slice(2);
if (!url || !countText || !text) {
  console.error('usage: node dist/bench/statement-cpu.js <database url> <count> <sql> [json array of values]');
  process.exit(2);
}
if (!isLocalDatabase(url)) throw new Error('the database must run on this machine: its backend\'s CPU is read from /proc');
const count = Number(countText);
if (!Number.isInteger(count) || count < 1) throw new Error(`count must be a whole number of at least 1; got ${countText}`);
const values = valuesText ? (JSON.parse(valuesText) as unknown[]) : [];

const client = new pg.Client({ connectionString: url });
await client.connect();
try {
  const { rows } = await client.query<{ pid: number }>('select pg_backend_pid() as pid');
  const pid = rows[0]!.pid;
  for (const form of ['unnamed', 'prepared', 'unnamed', 'prepared'] as const) {
    const cpuBefore = processCpuMs(pid);
    const started = performance.now();
    for (let i = 0; i < count; i++) {
      await (form === 'prepared' ? client.query({ name: 'statement_cpu', text, values }) : client.query(text, values));
    }
    const cpu = (processCpuMs(pid) - cpuBefore) / count;
    const wall = (performance.now() - started) / count;
    console.log(`${form.padEnd(8)} database CPU ${cpu.toFixed(3)} ms, round trip ${wall.toFixed(3)} ms per statement`);
  }
} finally {
  await client.end();
}
