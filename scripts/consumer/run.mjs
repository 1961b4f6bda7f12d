// The consumer test (`npm test`'s `consumer` suite): a tiny shop outside the workspace installs the kit from
// its tarballs with npm, runs under plain Node, type-checks under a default strict `tsc --init`, and a buyer
// pays through Chromium against a sandbox Till. Prints what it did; exits non-zero when a step failed.
import { execFileSync, spawn } from 'node:child_process'
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { chromium } from '@playwright/test'
import { chromiumLaunchOptions } from '../lib/chromium.mjs'
import { log, repoRoot } from '../lib/ensure.mjs'
import { packKit } from '../lib/kit.mjs'

const here = import.meta.dirname
const dir = mkdtempSync(path.join(os.tmpdir(), 'till-consumer-'))
const children = []
const results = []

/** Runs one step, recording it as passed or failed; a failed step stops the test. */
async function step(name, work) {
  const started = performance.now()
  try {
    const said = await work()
    results.push({ name, ok: true })
    log(`consumer: ✓ ${name} (${((performance.now() - started) / 1000).toFixed(1)} s)${said ? `: ${said}` : ''}`)
  } catch (error) {
    results.push({ name, ok: false })
    log(`consumer: ✗ ${name}: ${error instanceof Error ? error.message : String(error)}`)
    throw error
  }
}

const run = (command, args, options = {}) =>
  execFileSync(command, args, { cwd: dir, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], ...options })

/** Starts a long-running child and resolves with its first stdout line. */
function firstLine(command, args, env) {
  const child = spawn(command, args, { cwd: dir, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] })
  children.push(child)
  let stderr = ''
  child.stderr.on('data', (chunk) => (stderr += chunk))
  return new Promise((resolve, reject) => {
    let stdout = ''
    child.stdout.on('data', (chunk) => {
      stdout += chunk
      if (stdout.includes('\n')) resolve(stdout.split('\n')[0])
    })
    child.once('exit', (code) => reject(new Error(`${path.basename(args[0] ?? command)} exited (${code}): ${stderr.slice(-2000)}`)))
  })
}

async function main() {
  let tarballs = []
  await step('pack the kit', () => {
    tarballs = packKit(path.join(dir, 'kit'))
    return tarballs.map((file) => path.basename(file)).join(', ')
  })

  await step('npm install the tarballs in a project outside the workspace', () => {
    writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: 'consumer-shop', private: true, type: 'module' }))
    run('npm', [
      'install',
      '--no-audit',
      '--no-fund',
      '--omit=peer',
      ...tarballs,
      'express@5.3.0',
      '@types/express@5.0.6',
      '@types/node@20',
    ])
    return path.join(dir, 'node_modules/@till')
  })

  await step('type-check under a default strict tsc --init, skipLibCheck off', () => {
    const tsc = path.join(repoRoot, 'node_modules/.bin/tsc')
    run(tsc, ['--init'])
    const config = readFileSync(path.join(dir, 'tsconfig.json'), 'utf8')
      .replace(/"skipLibCheck":\s*true/, '"skipLibCheck": false')
      .replace(/"types":\s*\[\]/, '"types": ["node"], "lib": ["esnext", "dom"]')
    if (/"skipLibCheck":\s*true/.test(config)) throw new Error('tsc --init kept skipLibCheck on')
    writeFileSync(path.join(dir, 'tsconfig.json'), config)
    copyFileSync(path.join(here, 'types.ts'), path.join(dir, 'types.ts'))
    run(tsc, ['--noEmit', '-p', '.'])
    return `${tsc} --noEmit with strict, exactOptionalPropertyTypes, noUncheckedIndexedAccess`
  })

  const contract = await import(pathToFileURL(path.join(dir, 'node_modules/@till/contract/dist/index.js')).href)
  let till
  await step('start a sandbox Till', async () => {
    const line = await firstLine(process.execPath, [
      path.join(repoRoot, 'packages/service/bin/till.mjs'),
      'serve',
      '--sandbox',
      '--sandbox-hold-confirmations',
      '--json',
      '--port',
      '0',
      '--log-level',
      'warn',
    ])
    till = contract.SandboxReadyLine.parse(JSON.parse(line))
    return till.baseUrl
  })

  let shop
  await step('run the shop under plain node', async () => {
    run(
      'openssl',
      ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes', '-days', '1', '-subj', '/CN=localhost'].concat([
        '-addext',
        'subjectAltName=DNS:localhost,IP:127.0.0.1',
        '-keyout',
        'key.pem',
        '-out',
        'cert.pem',
      ]),
    )
    for (const file of ['shop.mjs']) copyFileSync(path.join(here, file), path.join(dir, file))
    for (const file of ['index.html', 'thanks.html'])
      copyFileSync(path.join(repoRoot, 'demo/examples/pay-button', file), path.join(dir, file))
    shop = await firstLine(process.execPath, [path.join(dir, 'shop.mjs')], {
      SHOP_KEY: path.join(dir, 'key.pem'),
      SHOP_CERT: path.join(dir, 'cert.pem'),
      TILL_BASE_URL: till.baseUrl,
      TILL_API_KEY: till.apiKey,
      TILL_MERCHANT_ID: till.merchantId,
    })
    return shop
  })

  await step('a buyer pays through Chromium and the shop shows the order paid', async () => {
    const browser = await chromium.launch(chromiumLaunchOptions())
    try {
      const page = await browser.newPage({ ignoreHTTPSErrors: true })
      await page.clock.install()
      await page.goto(`${shop}/index.html`)
      await page.getByRole('button', { name: 'Pay €19.99' }).click()
      await page.waitForURL(`${till.checkoutUrl}/**`)
      await page.getByRole('button', { name: 'Test Wallet: Pays' }).click()
      await page.getByRole('button', { name: /^Sign and pay/ }).click()
      await page.getByRole('heading', { name: 'Payment successful' }).waitFor()
      await page.clock.runFor(3_000)
      await page.waitForURL(`${shop}/thanks.html?**`)
      await page.getByText('Payment received. Thank you!').waitFor()
      return page.url()
    } finally {
      await browser.close()
    }
  })
}

try {
  await main()
} catch {
  process.exitCode = 1
} finally {
  for (const child of children) child.kill('SIGTERM')
  await Promise.all(children.map((child) => (child.exitCode === null ? new Promise((resolve) => child.once('exit', resolve)) : undefined)))
  rmSync(dir, { recursive: true, force: true })
  const passed = results.filter((result) => result.ok).length
  const counts = { passed, failed: results.length - passed, skipped: 0 }
  // scripts/test.mjs counts this file; run by hand, the line below says the same.
  if (process.env.TILL_CONSUMER_REPORT) writeFileSync(process.env.TILL_CONSUMER_REPORT, JSON.stringify(counts))
  console.log(`consumer: ${counts.passed} passed, ${counts.failed} failed`)
}
