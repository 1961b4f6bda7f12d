// Throwaway PostgreSQL clusters for tests: one temp directory, one server on a
// private port, gone again after stop() or when this process exits.

import { execFileSync, spawn } from 'node:child_process';
import { chownSync, closeSync, mkdirSync, openSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { ensurePostgresBinaries, isRoot } from './ensure.mjs';

const DIR_PREFIX = 'till-pg-';
const OWNER_FILE = 'till-owner.pid';
const READY_TIMEOUT_MS = 30_000;
const STOP_TIMEOUT_MS = 10_000;

/** Clusters this process started and has not stopped yet. */
const live = new Set();

/**
 * postgres and initdb refuse to run as root. Spawning them with Node's uid/gid
 * (rather than through runuser) keeps the server our direct child, so our
 * signals reach it: runuser would turn SIGINT into SIGTERM (a "smart" shutdown
 * that waits for clients) and SIGKILL it two seconds later.
 */
function serverAccount() {
  if (!isRoot()) return undefined;
  for (const name of ['postgres', 'nobody']) {
    try {
      const uid = Number(execFileSync('id', ['-u', name], { encoding: 'utf8' }).trim());
      const gid = Number(execFileSync('id', ['-g', name], { encoding: 'utf8' }).trim());
      return { uid, gid };
    } catch {
      // try the next account
    }
  }
  throw new Error('running as root, but there is neither a postgres nor a nobody account to run PostgreSQL as');
}

function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/**
 * Runs a short-lived program to completion, collecting its output for error messages.
 * @param {string} file
 * @param {string[]} args
 * @param {{ account?: { uid: number; gid: number }; cwd?: string; env: NodeJS.ProcessEnv }} options
 * @returns {Promise<string>}
 */
function runProgram(file, args, { account, cwd, env }) {
  return new Promise((resolve, reject) => {
    const child = spawn(file, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'], ...account });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.once('error', reject);
    child.once('close', (code, signal) => {
      if (code === 0) resolve(output);
      else reject(new Error(`${path.basename(file)} failed (${signal ?? `exit code ${code}`}):\n${output.trim()}`));
    });
  });
}

function readLog(file) {
  try {
    return readFileSync(file, 'utf8').trim().split('\n').slice(-40).join('\n');
  } catch {
    return '(no server log)';
  }
}

/** True once pid no longer runs. A zombie counts as gone: Node reaps it only from the event loop. */
function processGone(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z');
  } catch (error) {
    if (error.code !== 'ENOENT') {
      try {
        process.kill(pid, 0);
        return false;
      } catch {
        return true;
      }
    }
    return true;
  }
}

function sleepSync(ms) {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/**
 * Stops every cluster synchronously: on 'exit' and on signals there is no event
 * loop left to await anything. An immediate shutdown (SIGQUIT) is fine because
 * the data is deleted anyway.
 */
function stopAllNow() {
  for (const cluster of live) {
    live.delete(cluster);
    try {
      process.kill(cluster.pid, 'SIGQUIT');
    } catch {
      // already gone
    }
    const deadline = Date.now() + 5_000;
    while (!processGone(cluster.pid) && Date.now() < deadline) sleepSync(20);
    rmSync(cluster.dir, { recursive: true, force: true, maxRetries: 3 });
  }
}

let cleanupRegistered = false;

function registerCleanup() {
  if (cleanupRegistered) return;
  cleanupRegistered = true;
  process.once('exit', stopAllNow);
  for (const signal of /** @type {const} */ (['SIGINT', 'SIGTERM', 'SIGHUP'])) {
    const onSignal = () => {
      stopAllNow();
      // Listening to a signal cancels Node's default of exiting on it. If nobody else
      // listens (vitest does, and exits without running global teardowns), restore
      // that default. Prepending lets us see listeners that run after us.
      if (process.listenerCount(signal) === 1) {
        process.removeListener(signal, onSignal);
        process.kill(process.pid, signal);
      }
    };
    process.prependListener(signal, onSignal);
  }
}

/**
 * A run killed with SIGKILL cannot clean up after itself; the next run does it.
 * Only directories whose owning process is gone are touched, and only a
 * postmaster whose command line names that directory is signalled.
 */
function reapAbandonedClusters() {
  let names;
  try {
    names = readdirSync(os.tmpdir()).filter((name) => name.startsWith(DIR_PREFIX));
  } catch {
    return;
  }
  for (const name of names) {
    const dir = path.join(os.tmpdir(), name);
    let owner;
    try {
      owner = Number(readFileSync(path.join(dir, OWNER_FILE), 'utf8'));
    } catch {
      continue; // not ours, or still being created
    }
    if (!Number.isInteger(owner) || owner <= 0 || !processGone(owner)) continue;
    try {
      const postmaster = Number(readFileSync(path.join(dir, 'data', 'postmaster.pid'), 'utf8').split('\n')[0]);
      const cmdline = readFileSync(`/proc/${postmaster}/cmdline`, 'utf8');
      if (cmdline.includes(dir)) {
        process.kill(postmaster, 'SIGQUIT');
        const deadline = Date.now() + 5_000;
        while (!processGone(postmaster) && Date.now() < deadline) sleepSync(20);
      }
    } catch {
      // no server running there
    }
    try {
      rmSync(dir, { recursive: true, force: true, maxRetries: 3 });
    } catch {
      // another user's directory; not ours to remove
    }
  }
}

function waitForExit(child, ms) {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(true);
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), ms);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve(true);
    });
  });
}

/**
 * Starts a throwaway PostgreSQL cluster and returns its URL.
 * @param {{ port?: number; durable?: boolean; log?: (line: string) => void }} [options]
 */
export async function startPostgres(options = {}) {
  const { durable = false, log = () => {} } = options;
  const bin = ensurePostgresBinaries();
  const account = serverAccount();
  reapAbandonedClusters();
  registerCleanup();

  // The base directory holds our owner marker; initdb wants an empty directory of its own.
  const baseDir = await mkdtemp(path.join(os.tmpdir(), DIR_PREFIX));
  const dataDir = path.join(baseDir, 'data');
  const cleanupDir = () => rmSync(baseDir, { recursive: true, force: true, maxRetries: 3 });
  // Environment variables such as PGPORT or PGDATABASE must not steer our clients elsewhere.
  const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.startsWith('PG')));
  env.LC_ALL = 'C';
  const spawnOptions = { account, cwd: dataDir, env };

  try {
    writeFileSync(path.join(baseDir, OWNER_FILE), String(process.pid));
    mkdirSync(dataDir, { mode: 0o700 });
    if (account) {
      chownSync(baseDir, account.uid, account.gid);
      chownSync(dataDir, account.uid, account.gid);
    }
    log(`initdb ${dataDir}`);
    const initdbArgs = ['-D', dataDir, '-U', 'till', '--auth=trust', '-E', 'UTF8', '--no-locale'];
    // No fsync of the fresh cluster: it is thrown away anyway.
    if (!durable) initdbArgs.push('--no-sync');
    await runProgram(path.join(bin, 'initdb'), initdbArgs, spawnOptions);
  } catch (error) {
    cleanupDir();
    throw error;
  }

  const settings = ['-c', 'listen_addresses=127.0.0.1', '-c', 'max_connections=300'];
  if (!durable) settings.push('-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off');

  // A port we picked can be taken by someone else before postgres binds it; pick again.
  const attempts = options.port === undefined ? 3 : 1;
  const logFile = path.join(dataDir, 'server.log');
  for (let attempt = 1; ; attempt++) {
    const port = options.port ?? (await freePort());
    // A file rather than a pipe: the server never blocks on a full pipe, however much it logs.
    const logFd = openSync(logFile, 'a');
    const child = spawn(path.join(bin, 'postgres'), ['-D', dataDir, '-p', String(port), '-k', dataDir, ...settings], {
      ...account,
      cwd: dataDir,
      env,
      stdio: ['ignore', logFd, logFd],
    });
    closeSync(logFd);
    const cluster = { pid: child.pid ?? -1, dir: baseDir };
    if (child.pid !== undefined) live.add(cluster);
    let spawnError;
    child.once('error', (error) => (spawnError = error));

    try {
      await waitUntilReady({ bin, port, child, env, getSpawnError: () => spawnError });
      await runProgram(path.join(bin, 'createdb'), ['-h', '127.0.0.1', '-p', String(port), '-U', 'till', 'till'], spawnOptions);
    } catch (error) {
      live.delete(cluster);
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGQUIT');
        await waitForExit(child, STOP_TIMEOUT_MS);
      }
      const serverLog = readLog(logFile);
      const portTaken = /could not bind|Address already in use/i.test(serverLog);
      if (portTaken && attempt < attempts) {
        log(`port ${port} was taken, trying another`);
        continue;
      }
      cleanupDir();
      throw new Error(`PostgreSQL did not start on port ${port}: ${error.message}\n--- server log ---\n${serverLog}`);
    }

    const url = `postgres://till@127.0.0.1:${port}/till`;
    log(`PostgreSQL ready at ${url}`);
    // A caller that forgets stop() must not hang its process; the 'exit' hook cleans up then.
    child.unref();
    let stopping;
    const stop = () => {
      stopping ??= (async () => {
        // SIGINT is PostgreSQL's "fast" shutdown: roll back open sessions and exit.
        child.kill('SIGINT');
        if (!(await waitForExit(child, STOP_TIMEOUT_MS))) {
          child.kill('SIGKILL');
          await waitForExit(child, 5_000);
        }
        cleanupDir();
        // Only now: should this process die while stopping, the 'exit' hook still cleans up.
        live.delete(cluster);
      })();
      return stopping;
    };
    return { url, port, dataDir, stop };
  }
}

async function waitUntilReady({ bin, port, child, env, getSpawnError }) {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  for (;;) {
    const spawnError = getSpawnError();
    if (spawnError) throw spawnError;
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`the server exited (${child.signalCode ?? `exit code ${child.exitCode}`})`);
    }
    try {
      await runProgram(path.join(bin, 'pg_isready'), ['-q', '-h', '127.0.0.1', '-p', String(port), '-U', 'till', '-d', 'postgres', '-t', '1'], {
        env,
      });
      return;
    } catch {
      // not accepting connections yet
    }
    if (Date.now() > deadline) throw new Error(`it did not accept connections within ${READY_TIMEOUT_MS / 1000} s`);
    await sleep(100);
  }
}
