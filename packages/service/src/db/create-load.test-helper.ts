// A merchant's backend creating payments against a `till serve` under test, and what each create got back.
import { setTimeout as pace } from 'node:timers/promises'
import { ErrorBody, type TillReadyLine } from '@till/contract'

// The load is bounded: two clients, a short pause between their requests, and a ceiling on the count.
const CLIENTS = 2
const PACE_MS = 10
const MAX_CREATES = 20_000

export type Outcome = { at: number; status: number; referenceId: string; paymentId?: string; problem?: string }

export const headersOf = (ready: TillReadyLine) => ({
  'api-key': String(ready.apiKey),
  'merchant-id': String(ready.merchantId),
  'content-type': 'application/json',
})

/** One create, and whatever is wrong with its answer: anything but a 201, a replay's 200 or a 503 in the spec's shape. */
async function create(ready: TillReadyLine, referenceId: string): Promise<Outcome> {
  try {
    const response = await fetch(`${String(ready.baseUrl)}/v1/merchant/payment`, {
      method: 'POST',
      headers: headersOf(ready),
      body: JSON.stringify({ amount: { unit: 'iso4217/EUR', value: '1250' }, referenceId }),
      // Nothing may hang: a request gets its answer within the request timeout.
      signal: AbortSignal.timeout(30_000),
    })
    const body = (await response.json()) as Record<string, unknown>
    const outcome: Outcome = { at: performance.now(), status: response.status, referenceId }
    if (response.status === 201 || response.status === 200) return { ...outcome, paymentId: String(body.paymentId) }
    const error = ErrorBody.safeParse(body)
    const retryAfter = Number(response.headers.get('retry-after'))
    if (response.status === 503 && error.success && error.data.code === 'service_unavailable' && retryAfter >= 1) return outcome
    return { ...outcome, problem: `${response.status} ${JSON.stringify(body)} (Retry-After: ${response.headers.get('retry-after')})` }
  } catch (error) {
    return { at: performance.now(), status: 0, referenceId, problem: `no answer: ${(error as Error).message}` }
  }
}

/** A merchant's backend creating payments without let-up; a 503 is retried with the same referenceId. */
export function createLoad(ready: TillReadyLine) {
  const outcomes: Outcome[] = []
  let stopped = false
  let next = 0
  const client = async () => {
    while (!stopped && next < MAX_CREATES) {
      const referenceId = `load-${next++}`
      for (;;) {
        const outcome = await create(ready, referenceId)
        outcomes.push(outcome)
        await pace(PACE_MS)
        if (outcome.status !== 503 || stopped) break
      }
    }
  }
  const clients = Promise.all(Array.from({ length: CLIENTS }, client))
  return {
    outcomes,
    succeededAfter: (at: number) => outcomes.find((outcome) => outcome.paymentId !== undefined && outcome.at > at),
    async stop() {
      stopped = true
      await clients
    },
  }
}

export type CreateLoad = ReturnType<typeof createLoad>
