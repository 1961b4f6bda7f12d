// The dashboard's pages as `pnpm build` left them: one page for every path under /dashboard/, with a strict
// CSP (no inline script, no framing), and its assets; an unknown API path stays a JSON 404.
import { describe, expect, it } from 'vitest'
import { useTestApp } from '../../test/fixtures.ts'

const ctx = useTestApp()

describe('the dashboard’s pages', () => {
  it('serve one page under every path, with a CSP that allows no inline script and no framing', async () => {
    for (const path of ['/dashboard', '/dashboard/', '/dashboard/sign-in', '/dashboard/payments/pay_x']) {
      const page = await ctx.app.inject({ url: path })
      expect(page.statusCode, path).toBe(200)
      expect(page.body).toContain('<till-dashboard>')
      const csp = String(page.headers['content-security-policy'])
      expect(csp).toContain("script-src 'self'")
      expect(csp).not.toContain('unsafe-inline')
      expect(csp).toContain("frame-ancestors 'none'")
    }
  })

  it('serve the page’s script for good, and nothing else from the folder', async () => {
    const page = await ctx.app.inject({ url: '/dashboard/' })
    const script = /src="\/dashboard\/assets\/([\w.-]+\.js)"/.exec(page.body)?.[1]
    const asset = await ctx.app.inject({ url: `/dashboard/assets/${script}` })
    expect(asset.statusCode).toBe(200)
    expect(asset.headers['cache-control']).toContain('immutable')
    for (const file of ['..%2Fpackage.json', 'index.html', 'nope.js']) {
      expect((await ctx.app.inject({ url: `/dashboard/assets/${file}` })).statusCode, file).toBe(404)
    }
    const api = await ctx.app.inject({ url: '/dashboard/api/nothing-here' })
    expect(api.statusCode).toBe(404)
    expect(api.json()).toMatchObject({ code: 'not_found' })
  })
})
