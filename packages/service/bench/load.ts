// The load generator: autocannon, on loopback, bounded in connections and time.
import { randomBytes } from 'node:crypto'
import autocannon from 'autocannon'
import { cpuDelta, type CpuComponent, type CpuProbe } from './cpu.ts'
import type { TillReady } from './servers.ts'

export type LoadSettings = {
  connections: number
  durationSeconds: number
  warmupSeconds: number
}

export type Measurement = {
  /** 2xx responses per second of the measured window: failures do not count as throughput. */
  okPerSecond: number
  ok: number
  durationSeconds: number
  /** Latency of 2xx responses, in milliseconds. */
  p50: number
  p97_5: number
  p99: number
  non2xx: number
  /** Connection errors and timeouts. */
  errors: number
  timeouts: number
  /** Responses by status code, to say what went wrong when something did. */
  statusCodes: Record<string, number>
  /** CPU milliseconds each component spent during the run, where that can be read. */
  cpuMs: Partial<Record<CpuComponent, number>>
}

type Target = {
  url: string
  method: 'GET' | 'POST'
  headers: Record<string, string>
  /** A new body for every request; autocannon calls it as it builds each one. */
  nextBody?: () => string
}

/** 2xx latencies in milliseconds, each one kept: autocannon's own histogram has whole milliseconds only. */
class Latencies {
  private values = new Float64Array(1 << 16)
  private count = 0

  add(ms: number) {
    if (this.count === this.values.length) {
      const bigger = new Float64Array(this.values.length * 2)
      bigger.set(this.values)
      this.values = bigger
    }
    this.values[this.count++] = ms
  }

  /** Nearest-rank percentiles of everything added. */
  percentiles(): { p50: number; p97_5: number; p99: number } {
    const sorted = this.values.slice(0, this.count).sort()
    const at = (p: number) => (this.count === 0 ? 0 : (sorted[Math.max(0, Math.ceil(p * this.count) - 1)] ?? 0))
    return { p50: at(0.5), p97_5: at(0.975), p99: at(0.99) }
  }
}

function summarize(result: autocannon.Result, latencies: Latencies): Measurement {
  const statusCodes: Record<string, number> = {}
  for (const [code, stat] of Object.entries(result.statusCodeStats ?? {})) statusCodes[code] = stat.count ?? 0
  const ok = result['2xx']
  return {
    okPerSecond: result.duration > 0 ? ok / result.duration : 0,
    ok,
    durationSeconds: result.duration,
    ...latencies.percentiles(),
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    statusCodes,
    cpuMs: {},
  }
}

function fire(target: Target, connections: number, durationSeconds: number): Promise<Measurement> {
  const { nextBody } = target
  const latencies = new Latencies()
  return new Promise((resolve, reject) => {
    const instance = autocannon(
      {
        url: target.url,
        method: target.method,
        headers: target.headers,
        connections,
        pipelining: 1,
        duration: durationSeconds,
        // A request that takes this long is a failure worth seeing, not a latency to wait for.
        timeout: 10,
        ...(nextBody ? { requests: [{ setupRequest: (request) => ({ ...request, body: nextBody() }) }] } : {}),
      },
      (error: unknown, result) =>
        error ? reject(error instanceof Error ? error : new Error(String(error))) : resolve(summarize(result, latencies)),
    )
    instance.on('response', (_client, statusCode, _bytes, responseTime) => {
      if (statusCode >= 200 && statusCode < 300) latencies.add(responseTime)
    })
  })
}

/**
 * A warm-up run (JIT, connection pools, caches; its figures are dropped but its failures are not),
 * then the measured run.
 */
export async function measure(
  target: Target,
  settings: LoadSettings,
  probe?: CpuProbe,
): Promise<{ warmup: Measurement; result: Measurement }> {
  const warmup = await fire(target, settings.connections, settings.warmupSeconds)
  const before = probe?.()
  const result = await fire(target, settings.connections, settings.durationSeconds)
  if (probe && before) result.cpuMs = cpuDelta(before, probe())
  return { warmup, result }
}

export const helloTarget = (baseUrl: string): Target => ({ url: `${baseUrl}/`, method: 'GET', headers: {} })

function merchantHeaders(till: TillReady): Record<string, string> {
  return { 'Api-Key': till.apiKey, 'Merchant-Id': till.merchantId, 'content-type': 'application/json' }
}

/**
 * Every create carries a referenceId never used before: a repeated one would be an idempotent replay,
 * which is a read. The run prefix keeps ids unique across runs against one database too.
 */
export function createTarget(till: TillReady): Target {
  const run = randomBytes(6).toString('hex')
  let sequence = 0
  return {
    url: `${till.baseUrl}/v1/merchant/payment`,
    method: 'POST',
    headers: merchantHeaders(till),
    nextBody: () => JSON.stringify({ amount: { unit: 'iso4217/EUR', value: '1999' }, referenceId: `bench-${run}-${++sequence}` }),
  }
}

/** Creates the one payment the status reads ask about. */
export async function createOnePayment(till: TillReady): Promise<string> {
  const target = createTarget(till)
  const response = await fetch(target.url, { method: 'POST', headers: target.headers, body: target.nextBody?.() ?? '' })
  const text = await response.text()
  if (response.status !== 201) throw new Error(`creating the payment to read failed: HTTP ${response.status} ${text}`)
  const body: unknown = JSON.parse(text)
  const paymentId = typeof body === 'object' && body !== null && 'paymentId' in body ? body.paymentId : undefined
  if (typeof paymentId !== 'string') throw new Error(`the create response has no paymentId: ${text}`)
  return paymentId
}

/** Checks that a status read answers 200 before hammering it, so a wrong URL fails fast and clearly. */
export async function statusTarget(till: TillReady, paymentId: string): Promise<Target> {
  const target: Target = {
    url: `${till.baseUrl}/v1/merchant/payment/${paymentId}/status`,
    method: 'GET',
    headers: merchantHeaders(till),
  }
  const response = await fetch(target.url, { headers: target.headers })
  const text = await response.text()
  if (response.status !== 200) throw new Error(`reading the payment's status failed: HTTP ${response.status} ${text}`)
  return target
}
