// The bench's processes and how they talk: each child is a small entry under bench/ that answers
// calls from the harness over Node's IPC channel, and exits when that channel closes (so a harness
// that dies never leaves a gateway or ten thousand sockets behind).

import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';

type Handler = (params: never) => unknown;

interface CallMessage {
  kind: 'call';
  id: number;
  method: string;
  params: unknown;
}

interface ReplyMessage {
  kind: 'reply';
  id: number;
  ok: boolean;
  value?: unknown;
  error?: string;
}

interface ReadyMessage {
  kind: 'ready';
  info: unknown;
  /** The child's own open-file soft limit, as it sees it. */
  openFiles: number | undefined;
}

/**
 * In a child entry: answers the harness's calls with `handlers`, tells it `info` once ready, and
 * runs `onExit` (bounded) before exiting when the harness says `stop` or goes away.
 */
export function serveHarness(handlers: Record<string, Handler>, options: { onExit?: () => Promise<void> } = {}): { ready(info: unknown): void } {
  if (!process.send) throw new Error('this entry is started by the bench harness (node dist/bench/run.js), not directly');
  let exiting = false;
  const exit = async (code: number): Promise<void> => {
    if (exiting) return;
    exiting = true;
    const deadline = setTimeout(() => process.exit(code), 15_000);
    deadline.unref();
    try {
      await options.onExit?.();
    } finally {
      process.exit(code);
    }
  };
  process.on('message', (raw: unknown) => {
    const message = raw as CallMessage;
    if (message?.kind !== 'call') return;
    if (message.method === 'stop') {
      reply(message.id, true, null);
      void exit(0);
      return;
    }
    const handler = handlers[message.method];
    void (async () => {
      try {
        if (!handler) throw new Error(`unknown call ${message.method}`);
        reply(message.id, true, await handler(message.params as never));
      } catch (error) {
        reply(message.id, false, undefined, error instanceof Error ? (error.stack ?? error.message) : String(error));
      }
    })();
  });
  process.on('disconnect', () => void exit(1));
  // Ctrl-C reaches the whole process group: the harness cleans up in order, children just leave.
  process.on('SIGINT', () => void exit(130));
  process.on('SIGTERM', () => void exit(143));
  return {
    ready(info) {
      process.send?.({ kind: 'ready', info, openFiles: openFileLimits()?.soft } satisfies ReadyMessage);
    },
  };
}

function reply(id: number, ok: boolean, value: unknown, error?: string): void {
  if (!process.connected) return;
  process.send?.({ kind: 'reply', id, ok, value, error } satisfies ReplyMessage);
}

export interface SpawnOptions {
  /** Shown in errors and in the process list. */
  name: string;
  /** Compiled entry, e.g. dist/bench/gateway-process.js. */
  script: string;
  env?: NodeJS.ProcessEnv;
  /** Node flags, e.g. --expose-gc. */
  nodeFlags?: string[];
  /** Open-file soft limit the child needs; raised up to the hard limit through `ulimit -n`. */
  openFiles?: number;
  /** How long the child may take to say it is ready. */
  readyTimeoutMs?: number;
}

/** A running child entry: `call` it, then `stop` it. */
export class BenchChild<Info = unknown> {
  private nextId = 1;
  private readonly pending = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void; method: string }>();
  private exited = false;
  readonly exitedPromise: Promise<void>;

  private constructor(
    readonly name: string,
    private readonly child: ChildProcess,
    readonly info: Info,
  ) {
    this.exitedPromise = new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) resolve();
      child.once('exit', () => resolve());
    });
    child.on('message', (raw: unknown) => {
      const message = raw as ReplyMessage;
      if (message?.kind !== 'reply') return;
      const waiter = this.pending.get(message.id);
      if (!waiter) return;
      this.pending.delete(message.id);
      if (message.ok) waiter.resolve(message.value);
      else waiter.reject(new Error(`${this.name}.${waiter.method} failed: ${message.error}`));
    });
    child.once('exit', (code, signal) => {
      this.exited = true;
      for (const waiter of this.pending.values()) waiter.reject(new Error(`${this.name} exited (${signal ?? code}) during ${waiter.method}`));
      this.pending.clear();
    });
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  static async spawn<Info>(options: SpawnOptions, registry: Set<BenchChild>): Promise<BenchChild<Info>> {
    const node = [process.execPath, ...(options.nodeFlags ?? []), options.script];
    // `exec` keeps the pid and the IPC descriptor: the process we signal is node itself.
    const files = options.openFiles ?? 0;
    const command = files > 0 ? [`ulimit -n ${files} && exec "$@"`, 'bench-child', ...node] : ['exec "$@"', 'bench-child', ...node];
    const child = spawn('bash', ['-c', ...command], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'], env: { ...process.env, ...options.env } });
    const info = await new Promise<Info>((resolve, reject) => {
      const timer = setTimeout(() => {
        child.kill('SIGKILL');
        reject(new Error(`${options.name} did not start within ${options.readyTimeoutMs ?? 120_000} ms`));
      }, options.readyTimeoutMs ?? 120_000);
      const onMessage = (raw: unknown): void => {
        const message = raw as ReadyMessage;
        if (message?.kind !== 'ready') return;
        clearTimeout(timer);
        child.off('message', onMessage);
        child.off('exit', onExit);
        if (files > 0 && message.openFiles !== undefined && message.openFiles < files) {
          child.kill('SIGKILL');
          reject(new Error(`${options.name} runs with an open-file limit of ${message.openFiles}, below the ${files} it needs`));
          return;
        }
        resolve(message.info as Info);
      };
      const onExit = (code: number | null, signal: NodeJS.Signals | null): void => {
        clearTimeout(timer);
        reject(new Error(`${options.name} exited (${signal ?? code}) before it was ready`));
      };
      child.on('message', onMessage);
      child.once('exit', onExit);
      child.once('error', (error) => {
        clearTimeout(timer);
        reject(error);
      });
    });
    const handle = new BenchChild<Info>(options.name, child, info);
    registry.add(handle);
    void handle.exitedPromise.then(() => registry.delete(handle as BenchChild));
    return handle;
  }

  call<T>(method: string, params: unknown = {}, timeoutMs = 600_000): Promise<T> {
    if (this.exited || !this.child.connected) return Promise.reject(new Error(`${this.name} is not running (calling ${method})`));
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(new Error(`${this.name}.${method} gave no answer within ${timeoutMs} ms`));
      }, timeoutMs);
      this.pending.set(id, {
        method,
        resolve: (value) => {
          clearTimeout(timer);
          resolve(value as T);
        },
        reject: (error) => {
          clearTimeout(timer);
          reject(error);
        },
      });
      this.child.send({ kind: 'call', id, method, params } satisfies CallMessage);
    });
  }

  /** Asks the child to close what it holds and exit; kills it if it has not within `graceMs`. */
  async stop(graceMs = 20_000): Promise<void> {
    if (this.exited) return;
    if (this.child.connected) this.child.send({ kind: 'call', id: 0, method: 'stop', params: {} } satisfies CallMessage);
    else this.child.kill('SIGTERM');
    const timer = setTimeout(() => this.child.kill('SIGKILL'), graceMs);
    await this.exitedPromise;
    clearTimeout(timer);
  }

  /** For a harness that must leave at once (second Ctrl-C): no goodbye. */
  kill(): void {
    if (!this.exited) this.child.kill('SIGKILL');
  }
}

/** Soft and hard open-file limits of this process (Linux /proc), undefined where unknown. */
export function openFileLimits(): { soft: number; hard: number } | undefined {
  try {
    const line = readFileSync('/proc/self/limits', 'utf8')
      .split('\n')
      .find((candidate) => candidate.startsWith('Max open files'));
    const [, soft, hard] = line?.split(/\s{2,}/) ?? [];
    const parse = (value: string | undefined): number => (value === undefined || value === 'unlimited' ? Number.POSITIVE_INFINITY : Number(value));
    return soft === undefined ? undefined : { soft: parse(soft), hard: parse(hard) };
  } catch {
    return undefined;
  }
}
