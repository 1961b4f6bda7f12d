// `npm start`: installs dependencies, then runs the sandbox service on $PORT
// (default 4000) with its data in .till/data at the repository root.

import { spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ensurePnpm, installDependencies, log, repoRoot } from './lib/ensure.mjs';

try {
  ensurePnpm();
  installDependencies();
} catch (error) {
  log(`setup failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}

const port = process.env.PORT || '4000';
// What the root `till` script runs, minus the pnpm process in between: the
// service then gets exactly the signals forwarded below, no more.
const cli = path.join(repoRoot, 'packages', 'service', 'bin', 'till.mjs');
const dataDir = path.join(repoRoot, '.till', 'data');
// PGlite creates only the last directory of the path, and .till is not in a fresh clone.
mkdirSync(dataDir, { recursive: true });
const args = [cli, 'serve', '--sandbox', '--port', port, '--data-dir', dataDir];
log(`till serve --sandbox --port ${port} --data-dir .till/data`);

// Its own process group, so that Ctrl-C reaches the service once, through us:
// a second SIGINT makes it exit without finishing requests or closing the database.
const child = spawn(process.execPath, args, {
  cwd: repoRoot,
  detached: true,
  // A background process group must not read the terminal; the service reads no input.
  stdio: ['ignore', 'inherit', 'inherit'],
});

let lastForwarded = 0;
function forward(signal) {
  // Under `npm start`, one Ctrl-C arrives twice: from the terminal and from npm.
  const now = Date.now();
  if (now - lastForwarded < 1_000) return;
  lastForwarded = now;
  if (child.exitCode === null && child.signalCode === null) child.kill(signal);
}
process.on('SIGINT', () => forward('SIGINT'));
process.on('SIGTERM', () => forward('SIGTERM'));
// A closed terminal hangs up its jobs, and the service is not one of them any more.
process.on('SIGHUP', () => forward('SIGTERM'));
process.on('exit', () => {
  if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
});

child.once('error', (error) => {
  log(`could not start the service: ${error.message}`);
  process.exitCode = 1;
});
child.once('exit', (code, signal) => {
  process.exitCode = code ?? (signal ? 128 + os.constants.signals[signal] : 1);
});
