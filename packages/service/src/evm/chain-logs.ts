import { type Address, BaseError, HttpRequestError, type PublicClient, parseAbiItem, RpcRequestError } from 'viem'

/** One ERC-20 Transfer as a token logged it: what the watcher matches against open payments. */
export type TransferLog = {
  /** The token contract, lower-cased. */
  token: Address
  txHash: string
  logIndex: number
  blockNumber: bigint
  from: Address
  to: Address
  value: bigint
}

const TRANSFER_EVENT = parseAbiItem('event Transfer(address indexed from, address indexed to, uint256 value)')

/**
 * Whether the RPC refused the range itself rather than failing: a JSON-RPC error answer ("block range too
 * large", "query returned more than 10000 results", -32005 …) or an HTTP 400/413. Providers word the limit
 * differently, so any refusal is answered by halving; a transport failure or a timeout is not a refusal,
 * and halving would not help it.
 */
export function refusesRange(error: unknown): boolean {
  if (!(error instanceof BaseError)) return false
  return (
    error.walk((cause) => cause instanceof RpcRequestError) instanceof RpcRequestError ||
    [400, 413].includes((error.walk((cause) => cause instanceof HttpRequestError) as HttpRequestError | null)?.status ?? 0)
  )
}

/** The Transfer logs of `tokens` in blocks `from` to `to` (inclusive), in chain order, in one eth_getLogs call. */
export async function transferLogs(client: PublicClient, tokens: readonly Address[], from: bigint, to: bigint): Promise<TransferLog[]> {
  const logs = await client.getLogs({ address: [...tokens], event: TRANSFER_EVENT, fromBlock: from, toBlock: to, strict: true })
  return logs.flatMap((log) =>
    log.transactionHash === null || log.logIndex === null || log.blockNumber === null
      ? []
      : [
          {
            token: log.address.toLowerCase() as Address,
            txHash: log.transactionHash.toLowerCase(),
            logIndex: log.logIndex,
            blockNumber: log.blockNumber,
            from: log.args.from.toLowerCase() as Address,
            to: log.args.to.toLowerCase() as Address,
            value: log.args.value,
          },
        ],
  )
}

// After this many ranges in a row are answered, a halved span is tried doubled again: a limit on how many
// logs one answer may hold depends on how busy the blocks are, not only on their count.
const GROW_AFTER = 16

/**
 * Cuts `from`..`to` into ranges the RPC accepts: at most `maxRange` blocks, halved while the RPC refuses a
 * range, down to a single block (a refusal then is a failure, thrown). The span learned is kept for the
 * next call, so a provider's limit is found once, not on every pass.
 */
export function logRanges(maxRange: number) {
  let span = BigInt(maxRange)
  let answered = 0
  return {
    get span() {
      return span
    },
    /** The range's logs piece by piece, in chain order: each piece is read when it is asked for. */
    async *pieces(
      client: PublicClient,
      tokens: readonly Address[],
      range: { from: bigint; to: bigint },
    ): AsyncGenerator<{ logs: TransferLog[]; last: bigint }> {
      let from = range.from
      while (from <= range.to) {
        const to = from + span - 1n < range.to ? from + span - 1n : range.to
        let logs: TransferLog[]
        try {
          logs = await transferLogs(client, tokens, from, to)
        } catch (error) {
          if (to === from || !refusesRange(error)) throw error
          span = (to - from + 1n) / 2n
          answered = 0
          continue
        }
        if (++answered >= GROW_AFTER && span < BigInt(maxRange)) {
          span = span * 2n < BigInt(maxRange) ? span * 2n : BigInt(maxRange)
          answered = 0
        }
        yield { logs, last: to }
        from = to + 1n
      }
    },
  }
}
