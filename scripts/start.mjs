// `npm start`: installs dependencies, then runs the demo: the sandbox service on http://127.0.0.1:4000
// (its embedded PostgreSQL), the demo shop's backend and the built shop on https://127.0.0.1:5443. Flags are
// passed on to demo/server/main.ts (`npm start -- --port 8443`). What has not changed since the last start
// is not built again; a build's output shows only if it fails.

import { spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { buildPackages, ensurePnpm, installDependencies, log, repoRoot, run } from './lib/ensure.mjs'
import { buildStamp } from './lib/fresh.mjs'

const demo = (...parts) => path.join(repoRoot, 'demo', ...parts)
// The shop's pages, their build and the elements they bundle; the packages' build is checked before.
const shopBuild = buildStamp(path.join(repoRoot, 'node_modules', '.till', 'shop-built'), [
  demo('shop'),
  demo('brand'),
  demo('vite.config.ts'),
  demo('server', 'logo.ts'),
  demo('server', 'brand.ts'),
  path.join(repoRoot, 'packages', 'elements', 'src'),
])

try {
  ensurePnpm()
  installDependencies({ quiet: true })
  buildPackages({ quiet: true })
  if (!existsSync(demo('dist', 'index.html')) || !shopBuild.isFresh()) {
    log('building the shop')
    shopBuild.build(() =>
      run(process.execPath, ['--import', 'tsx', demo('server', 'build-shop.ts')], { stdio: ['ignore', 'ignore', 'inherit'] }),
    )
  }
} catch (error) {
  log(`setup failed: ${error instanceof Error ? error.message : String(error)}`)
  process.exit(1)
}

// Node itself rather than a pnpm script: the demo then gets exactly the signals forwarded below, no more.
const args = ['--import', 'tsx', demo('server', 'main.ts'), '--no-build', ...process.argv.slice(2)]
log('starting the demo: the Till service, the shop backend and the shop')

// Its own process group, so that Ctrl-C reaches the demo once, through us:
// a second SIGINT makes it exit without finishing requests or closing the database.
const child = spawn(process.execPath, args, {
  cwd: repoRoot,
  detached: true,
  // A background process group must not read the terminal; the demo reads no input.
  stdio: ['ignore', 'inherit', 'inherit'],
})

let lastForwarded = 0
function forward(signal) {
  // Under `npm start`, one Ctrl-C arrives twice: from the terminal and from npm.
  const now = Date.now()
  if (now - lastForwarded < 1_000) return
  lastForwarded = now
  if (child.exitCode === null && child.signalCode === null) child.kill(signal)
}
process.on('SIGINT', () => forward('SIGINT'))
process.on('SIGTERM', () => forward('SIGTERM'))
// A closed terminal hangs up its jobs, and the demo is not one of them any more.
process.on('SIGHUP', () => forward('SIGTERM'))
process.on('exit', () => {
  if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM')
})

child.once('error', (error) => {
  log(`could not start the demo: ${error.message}`)
  process.exitCode = 1
})
child.once('exit', (code, signal) => {
  process.exitCode = code ?? (signal ? 128 + os.constants.signals[signal] : 1)
})
