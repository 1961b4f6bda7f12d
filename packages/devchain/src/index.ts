export { type Anvil, anvilBinary, startAnvil } from './anvil.ts'
export { chainClients, deployToken, devAccount, testTokenArtifact } from './token.ts'
