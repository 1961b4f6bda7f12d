// What `till serve --json` prints on stdout once it listens: one JSON line, for whatever launched it (the
// e2e suite, the demo, the benchmarks, an operator's script). Not part of the HTTP interface, so none of
// these schemas carries an OpenAPI id.
import { z } from 'zod'
import { MerchantId } from './merchant.ts'
import { ApiVersion } from './versions.ts'
import { AppId } from './wallet-app.ts'

const HttpUrl = z.url({ protocol: /^https?$/, error: 'must be an absolute http:// or https:// URL' })

const ReadyAddresses = z.object({
  /** Where the API is reached, without a trailing slash. */
  baseUrl: HttpUrl,
  /** The hosted checkout page; a payment's page is `${checkoutUrl}/${paymentId}`. */
  checkoutUrl: HttpUrl,
  /**
   * `till serve --sandbox`: a single-use link for the sandbox partner's dashboard owner, valid 24 hours; absent
   * once that owner has an account (sign in at `${baseUrl}/dashboard/`).
   */
  dashboardInviteUrl: HttpUrl.optional(),
  /** `till serve --metrics-port`: where Prometheus scrapes this instance (its own listener, not the API's). */
  metricsUrl: HttpUrl.optional(),
})

/** The test partner's key, its merchant, its API version and its wallet app, which `till serve --sandbox` sets up. */
export const SandboxCredentials = z.object({
  apiKey: z.string().startsWith('till_sk_test_', { error: 'must be a sandbox key (till_sk_test_…)' }),
  merchantId: MerchantId,
  version: ApiVersion,
  /** The sandbox's own wallet app: the checkout page's test wallets pay through it (App-Id of the listing). */
  appId: AppId,
})
export type SandboxCredentials = z.infer<typeof SandboxCredentials>

const CREDENTIALS = Object.keys(SandboxCredentials.shape) as (keyof SandboxCredentials)[]

/**
 * Any ready line: the credentials come all together (sandbox mode) or not at all. Fields a newer
 * service may add are dropped rather than refused, so an older launcher still starts it.
 */
export const TillReadyLine = ReadyAddresses.extend(SandboxCredentials.partial().shape).refine(
  (line) => CREDENTIALS.every((key) => line[key] === undefined) || CREDENTIALS.every((key) => line[key] !== undefined),
  { error: 'apiKey, merchantId, version and appId come together (sandbox mode) or not at all' },
)
export type TillReadyLine = z.infer<typeof TillReadyLine>

/** The line of `till serve --sandbox --json`, for launchers that go on to make API calls with it. */
export const SandboxReadyLine = ReadyAddresses.extend(SandboxCredentials.shape)
export type SandboxReadyLine = z.infer<typeof SandboxReadyLine>
