export { type Anvil, anvilBinary, startAnvil } from './anvil.ts'
export { startTillLocalChain, type TillLocalChain } from './till-chain.ts'
export { chainClients, deployToken, devAccount, testTokenArtifact } from './token.ts'
