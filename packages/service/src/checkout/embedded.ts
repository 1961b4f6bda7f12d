import { returnUrlProblem, WEBVIEW_QUERY } from '@till/contract'

/** How the page was opened: in a browser, embedded in an app's WebView (spec 4.8), or embedded wrongly. */
export type Embedding =
  | { mode: 'browser' }
  | { mode: 'embedded'; returnUrl: string }
  | { mode: 'invalid'; problems: { field: string; message: string }[] }

const one = (value: unknown): string | undefined | null => (value === undefined ? undefined : typeof value === 'string' ? value : null)

/**
 * Reads the two parameters an app sets on `gatewayUrl` (spec 4.8). A page given them wrongly shows the app
 * developer what to fix instead of a checkout that would lose the buyer on the way back from the wallet.
 */
export function embeddingOf(query: Record<string, unknown>): Embedding {
  const returnUrl = one(query[WEBVIEW_QUERY.returnUrl])
  const prefer = one(query[WEBVIEW_QUERY.preferUniversalLinks])
  if (returnUrl === undefined && prefer === undefined) return { mode: 'browser' }
  const problems: { field: string; message: string }[] = []
  if (returnUrl === undefined)
    problems.push({ field: 'returnUrl', message: 'is required: the app’s own deep link, e.g. myapp://checkout/done' })
  else if (returnUrl === null) problems.push({ field: 'returnUrl', message: 'must be given once' })
  else {
    const problem = returnUrlProblem(returnUrl)
    if (problem) problems.push({ field: 'returnUrl', message: problem })
  }
  if (prefer !== '1') problems.push({ field: 'preferUniversalLinks', message: 'must be 1' })
  return problems.length > 0 || typeof returnUrl !== 'string' ? { mode: 'invalid', problems } : { mode: 'embedded', returnUrl }
}
