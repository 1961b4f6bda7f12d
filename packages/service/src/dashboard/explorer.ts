/**
 * Links to a transaction at its network's explorer, from each network's optional `explorerTxUrl`
 * (`https://basescan.org/tx/{hash}`); null for a network without one, or unknown.
 */
export function explorerLinks(networks: readonly { id: string; explorerTxUrl?: string | undefined }[]) {
  const patterns = new Map(networks.map((network) => [network.id, network.explorerTxUrl]))
  return (network: string, hash: string): string | null => patterns.get(network)?.replace('{hash}', encodeURIComponent(hash)) ?? null
}
