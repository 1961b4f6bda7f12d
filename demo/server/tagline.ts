// The shop's pages as a stack on a local chain serves them: built once, with the sandbox's tagline, they are
// served with the local chain's, so no page of that shop speaks of test wallets it does not have.
import { readFile } from 'node:fs/promises'
import path from 'node:path'
import type { RequestHandler } from 'express'
import { SHOP_TAGLINE } from './brand.ts'

/** The built page a path names (`/` and `/cart` as the static server reads them), or undefined. */
function pageOf(urlPath: string): string | undefined {
  if (urlPath === '/') return 'index.html'
  const name = urlPath.slice(1)
  if (name.includes('/') || name.includes('..')) return undefined
  if (name.endsWith('.html')) return name
  return path.extname(name) === '' ? `${name}.html` : undefined
}

export function localChainPages(shopDir: string): RequestHandler {
  const pages = new Map<string, Promise<string | undefined>>()
  const load = (page: string) =>
    readFile(path.join(shopDir, page), 'utf8').then(
      (html) => html.replaceAll(SHOP_TAGLINE.sandbox, SHOP_TAGLINE.local),
      () => undefined,
    )
  return (request, response, next) => {
    const page = request.method === 'GET' ? pageOf(request.path) : undefined
    if (page === undefined) return next()
    if (!pages.has(page)) pages.set(page, load(page))
    pages.get(page)?.then((html) => (html === undefined ? next() : response.type('html').send(html)), next)
  }
}
