// The whole demo: the Till service (sandbox mode, in-memory PGlite) as a child process, the built shop,
// and the shop's backend over HTTPS. `main.ts` runs it from the command line; it is also what the e2e
// suite's playwright.config.ts starts.
import { once } from 'node:events';
import { mkdirSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildElementsBundle } from '@till/elements/build';
import { spawnTill, type TillReady } from '@till/service/spawn';
import { createDemoApp } from './app.ts';
import { localhostCertificate } from './certificate.ts';

export const SHOP_DIR = fileURLToPath(new URL('../dist', import.meta.url));
const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));

export interface StackOptions {
  /** The shop's HTTPS port (0: any free one). */
  port: number;
  /** Till's HTTP port (0: any free one). */
  tillPort: number;
  /** More `till serve` flags, e.g. ['--sandbox-confirm-ms', '1500']. */
  tillArgs?: readonly string[];
  /** Rebuild demo/dist with Vite first. */
  build: boolean;
  log?: (message: string, error?: unknown) => void;
}

export interface DemoStack {
  /** https://127.0.0.1:<port> */
  shopUrl: string;
  till: TillReady;
  stop(): Promise<void>;
}

/** Builds the shop into demo/dist, and the elements' drop-in bundle the README's example serves. */
export async function buildShop(): Promise<void> {
  const { build } = await import('vite');
  await build({ configFile: fileURLToPath(new URL('../vite.config.ts', import.meta.url)), logLevel: 'warn' });
  // `@till/elements/pay-elements.js` resolves only once the file exists; it sits in dist/ beside build.ts.
  const bundle = fileURLToPath(new URL('./dist/pay-elements.js', import.meta.resolve('@till/elements/build')));
  mkdirSync(path.dirname(bundle), { recursive: true });
  writeFileSync(bundle, await buildElementsBundle());
}

export async function startDemoStack(options: StackOptions): Promise<DemoStack> {
  if (options.build) await buildShop();
  const till = await spawnTill({
    args: ['--sandbox', '--host', '127.0.0.1', '--port', String(options.tillPort), '--log-level', 'warn', ...(options.tillArgs ?? [])],
    cwd: REPO_ROOT,
    onStderr: (chunk) => process.stderr.write(chunk),
  });
  let server: Server | undefined;
  try {
    const { key, cert } = await localhostCertificate();
    server = createServer({ key, cert });
    server.listen(options.port, '127.0.0.1');
    await once(server, 'listening');
    // The app is made once the port, and so the shop's origin, is known; requests only come after.
    const shopUrl = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
    server.on(
      'request',
      createDemoApp({
        till: { baseUrl: till.ready.baseUrl, apiKey: till.ready.apiKey, merchantId: till.ready.merchantId },
        shopOrigin: shopUrl,
        shopDir: SHOP_DIR,
        ...(options.log ? { log: options.log } : {}),
      }),
    );
    const listening = server;
    return {
      shopUrl,
      till: till.ready,
      async stop() {
        listening.closeAllConnections();
        await new Promise<void>((resolve) => listening.close(() => resolve()));
        await till.stop();
      },
    };
  } catch (error) {
    server?.close();
    await till.stop();
    throw error;
  }
}
