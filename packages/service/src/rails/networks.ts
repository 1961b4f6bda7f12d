/**
 * The names of the networks Till knows, by CAIP-2 id: facts about chains, shown wherever a payment's
 * network is (the checkout page, the listing), whichever rail took the payment.
 */
const NETWORK_NAMES: Record<string, string> = {
  'eip155:1': 'Ethereum',
  'eip155:8453': 'Base',
  'eip155:137': 'Polygon',
  'eip155:10': 'OP Mainnet',
  'eip155:42161': 'Arbitrum One',
  'eip155:11155111': 'Sepolia',
  'eip155:84532': 'Base Sepolia',
  'eip155:31337': 'Local chain',
}

export const networkName = (caip2: string): string | undefined => NETWORK_NAMES[caip2]
