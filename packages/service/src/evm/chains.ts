import { createPublicClient, http, type PublicClient } from 'viem'
import type { EvmConfig, EvmNetwork } from './config.ts'

/** What the rail asks a network: one read-only JSON-RPC client per configured network. Till never signs. */
export type EvmChains = {
  network(id: string): EvmNetwork | undefined
  client(id: string): PublicClient
  /**
   * The same network's client, sending the requests made in one tick as one JSON-RPC batch: the chain
   * watcher reads the transactions of a range's transfers so, in one round trip.
   */
  batched(id: string): PublicClient
}

// One RPC answer that takes longer than this is treated as a network that cannot be asked now.
const RPC_TIMEOUT_MS = 10_000

export function evmChains(config: Pick<EvmConfig, 'networks'>): EvmChains {
  const clients = new Map<string, { one: PublicClient; batched: PublicClient }>()
  for (const network of config.networks) {
    const client = (batch: boolean) =>
      createPublicClient({
        transport: http(network.rpcUrl, { timeout: RPC_TIMEOUT_MS, retryCount: 1, batch }),
        // Blocks are counted, never cached: confirmations are read fresh on every check.
        cacheTime: 0,
        pollingInterval: 1_000,
      })
    clients.set(network.id, { one: client(false), batched: client(true) })
  }
  const of = (id: string) => {
    const found = clients.get(id)
    if (!found) throw new Error(`no configured network ${id}`)
    return found
  }
  return {
    network: (id) => config.networks.find((network) => network.id === id),
    client: (id) => of(id).one,
    batched: (id) => of(id).batched,
  }
}

/**
 * Refuses an RPC endpoint that serves another chain than the one configured for it: every check on it
 * would read the wrong chain's transactions. Unreachable endpoints are reported, not refused, so that a
 * network outage does not stop Till from starting; its payments wait until it answers.
 */
export async function checkChainIds(
  chains: EvmChains,
  networks: readonly EvmNetwork[],
): Promise<{ unreachable: string[]; wrong: string[] }> {
  const unreachable: string[] = []
  const wrong: string[] = []
  for (const network of networks) {
    try {
      const chainId = await chains.client(network.id).getChainId()
      if (chainId !== network.chainId) {
        wrong.push(
          `${network.id}: its rpcUrl ${network.rpcUrl} serves chain ${chainId}, not ${network.chainId}; point it at a node of ${network.name}`,
        )
      }
    } catch (error) {
      unreachable.push(
        `${network.id}: ${network.rpcUrl} did not answer (${error instanceof Error ? error.message.split('\n')[0] : String(error)})`,
      )
    }
  }
  return { unreachable, wrong }
}
