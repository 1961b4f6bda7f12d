// A sandbox Till for the client's integration tests, started from the service's own launcher: the client
// cannot use @till/testing here, since that kit is built on this client.
import { spawnTill, type TillReady } from '@till/service/spawn'

export type SandboxTill = TillReady & { stop(): Promise<void> }

/** `till serve --sandbox` on a free loopback port, its confirmations held for `sandbox.confirm`; `args` are added. */
export async function startSandboxTill(options: { args?: readonly string[] } = {}): Promise<SandboxTill> {
  const till = await spawnTill({ args: ['--sandbox', '--sandbox-hold-confirmations', '--port', '0', ...(options.args ?? [])] })
  return { ...till.ready, stop: till.stop }
}
