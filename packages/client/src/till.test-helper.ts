// A sandbox Till for the client's integration tests, started from the service's own launcher: the client
// cannot use @till/testing here, since that kit is built on this client.
import { spawnTill, type TillReady } from '@till/service/spawn'
import { TillError } from './errors.ts'

export type SandboxTill = TillReady & { stop(): Promise<void> }

/** `till serve --sandbox` on a free loopback port, its confirmations held for `sandbox.confirm`; `args` are added. */
export async function startSandboxTill(options: { args?: readonly string[] } = {}): Promise<SandboxTill> {
  const till = await spawnTill({ args: ['--sandbox', '--sandbox-hold-confirmations', '--port', '0', ...(options.args ?? [])] })
  return { ...till.ready, stop: till.stop }
}

/** What `promise` was refused with, as a TillError; fails when it resolved or threw anything else. */
export async function rejection(promise: Promise<unknown>): Promise<TillError> {
  try {
    await promise
  } catch (error) {
    if (error instanceof TillError) return error
    throw error
  }
  throw new Error('expected a rejection')
}
