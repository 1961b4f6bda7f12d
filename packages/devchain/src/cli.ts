// `pnpm devchain pay '<ethereum: URI>'` from the repository's root: pays the EIP-681 payment request the
// checkout page shows phone wallets, from one of anvil's dev accounts, so that path is tried without a phone.
// Exit codes: 0 paid, 2 a usage or request error, 1 a chain error.
import { pathToFileURL } from 'node:url'
import { parseArgs } from 'node:util'
import { DEV_WALLET_INDEX } from './accounts.ts'
import { ChainError, payRequest } from './pay.ts'
import { PaymentRequestError, parsePaymentRequest } from './payment-request.ts'
import { LOCAL_CHAIN_RECORD, readLocalChainRecord } from './record.ts'

export const DEFAULT_RPC_URL = 'http://127.0.0.1:8545'

const USAGE = `Usage: pnpm devchain pay '<ethereum: URI>' [--rpc <url>] [--from <n>]

  Pays an EIP-681 ERC-20 payment request, ethereum:<token>@<chain id>/transfer?address=<to>&uint256=<amount>,
  with a plain transfer from one of anvil's dev accounts, as a phone wallet would.

  --rpc <url>   the chain's JSON-RPC: by default that of the running \`npm start -- --chain local\`, else ${DEFAULT_RPC_URL}
  --from <n>    the dev account's index (default ${DEV_WALLET_INDEX}, the one the demo funds with USDC)`

export type Io = { stdout: (line: string) => void; stderr: (line: string) => void; recordFile?: string }

const consoleIo: Io = { stdout: (line) => console.log(line), stderr: (line) => console.error(line) }

export async function main(argv: readonly string[], io: Io = consoleIo): Promise<number> {
  const usage = (problem: string): number => {
    io.stderr(`devchain: ${problem}\n\n${USAGE}`)
    return 2
  }
  let parsed: ReturnType<typeof parse>
  try {
    parsed = parse(argv)
  } catch (error) {
    return usage(error instanceof Error ? error.message : String(error))
  }
  if (parsed.values.help) {
    io.stdout(USAGE)
    return 0
  }
  const [command, uri, ...rest] = parsed.positionals
  if (command !== 'pay') return usage(command === undefined ? 'no command' : `unknown command "${command}"`)
  if (uri === undefined) return usage('pay needs the ethereum: URI, in quotes (the shell would read its & and ?)')
  if (rest.length > 0) return usage(`one URI only; also given: ${rest.join(' ')}`)
  const from = parsed.values.from ?? String(DEV_WALLET_INDEX)
  if (!/^[0-9]{1,4}$/.test(from)) return usage(`--from "${from}" is not a dev account's index (0, 1, 2…)`)

  let request: ReturnType<typeof parsePaymentRequest>
  try {
    request = parsePaymentRequest(uri)
  } catch (error) {
    if (!(error instanceof PaymentRequestError)) throw error
    io.stderr(`devchain pay: ${error.message}`)
    return 2
  }

  let rpcUrl = parsed.values.rpc
  let where = ''
  if (rpcUrl === undefined) {
    const recorded = readLocalChainRecord(io.recordFile ?? LOCAL_CHAIN_RECORD)
    rpcUrl = recorded?.rpcUrl ?? DEFAULT_RPC_URL
    where = recorded ? ' (the demo’s local chain)' : ' (the default: no `npm start -- --chain local` is running; --rpc names another chain)'
  }
  io.stdout(
    `Paying ${request.amount} (the token's smallest unit) of ${request.token} to ${request.recipient} on chain ${request.chainId}, from dev account ${from}, through ${rpcUrl}${where}`,
  )
  try {
    const paid = await payRequest(request, {
      rpcUrl,
      from: Number(from),
      onSent: (hash) => io.stdout(`  transaction ${hash}, waiting for its block…`),
    })
    io.stdout(`  paid in block ${paid.blockNumber}`)
    return 0
  } catch (error) {
    if (!(error instanceof ChainError)) throw error
    io.stderr(`devchain pay: ${error.message}`)
    return 1
  }
}

function parse(argv: readonly string[]) {
  return parseArgs({
    args: [...argv],
    options: { rpc: { type: 'string' }, from: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
    allowPositionals: true,
    strict: true,
  })
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  process.exitCode = await main(process.argv.slice(2)).catch((error: unknown) => {
    console.error(`devchain: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`)
    return 1
  })
}
