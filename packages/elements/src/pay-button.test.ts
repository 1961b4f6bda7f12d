import { expect, fixture, html, oneEvent, waitUntil } from '@open-wc/testing'
import { gate, partText, press, scenario, shadow } from '../test/browser.ts'
import './define/pay-button.ts'
import type { PayButton, PayCreatedEvent, PayStartEvent } from './pay-button.ts'
import type { PayErrorEvent } from './shared.ts'

const created = { status: 201, body: { paymentId: 'pay_1', gatewayUrl: 'https://till.example/checkout/pay_1' } }

/** The button inside the element. */
const button = (element: PayButton) => {
  const found = shadow(element).querySelector('button')
  if (!found) throw new Error('no button')
  return found
}

/** Prevents the navigation a `pay-created` would cause, and resolves with the event. */
function created$(element: PayButton): Promise<PayCreatedEvent> {
  return new Promise((resolve) =>
    element.addEventListener(
      'pay-created',
      (event) => {
        event.preventDefault()
        resolve(event)
      },
      { once: true },
    ),
  )
}

/** Fails the test if the element ever leaves the page: a `pay-created` nobody prevented. */
function neverNavigate(element: PayButton) {
  element.addEventListener('pay-created', (event) => event.preventDefault())
}

async function withForm(action: string, extra = html``) {
  return fixture<PayButton>(html`<pay-button>
    ${extra}
    <form method="post" action=${action}>
      <input type="hidden" name="orderId" value="ord_123" />
      <input type="hidden" name="coupon" value="SPRING" />
      <button type="submit">Pay €19.99</button>
    </form>
  </pay-button>`)
}

describe('<pay-button>', () => {
  it('renders a real button labelled by the fallback form, and does not show the form', async () => {
    const backend = await scenario(created)
    const element = await withForm(backend.url)
    expect(element.state).to.equal('idle')
    expect(element.disabled).to.equal(false)
    expect(button(element).getAttribute('part')).to.equal('button')
    expect(partText(element, 'label')).to.equal('Pay €19.99')
    expect(button(element).getAttribute('aria-disabled')).to.equal('false')
    expect(partText(element, 'status')).to.equal('')
    // Still in the light DOM (the no-JavaScript path), but not rendered: there is no slot for it.
    const form = element.querySelector('form')
    expect(form).to.exist
    expect(form?.getClientRects().length).to.equal(0)
    expect(shadow(element).querySelector('form')).to.equal(null)
    await expect(element).to.be.accessible()
  })

  it('POSTs the form fields as JSON to the form action, then fires pay-created with the reply', async () => {
    const backend = await scenario(created)
    const element = await withForm(backend.url)
    const start = oneEvent(element, 'pay-start') as Promise<PayStartEvent>
    const event = created$(element)
    button(element).click()

    const started = await start
    expect(started.detail).to.deep.equal({
      action: new URL(backend.url, location.href).href,
      body: { orderId: 'ord_123', coupon: 'SPRING' },
    })
    expect(started.bubbles && started.composed && started.cancelable).to.equal(true)

    const reply = await event
    expect(reply.detail).to.deep.equal({ paymentId: 'pay_1', gatewayUrl: 'https://till.example/checkout/pay_1' })
    expect(reply.bubbles && reply.composed && reply.cancelable).to.equal(true)

    const [request] = await backend.received(1)
    expect(request?.method).to.equal('POST')
    expect(request?.contentType).to.equal('application/json')
    expect(request?.accept).to.equal('application/json')
    expect(JSON.parse(request?.body ?? '')).to.deep.equal({ orderId: 'ord_123', coupon: 'SPRING' })
    // The page took over the navigation: the button is idle again.
    await waitUntil(() => element.state === 'idle')
    expect(location.href).not.to.contain('till.example')
  })

  it('sends { orderId } from order-id to action when there is no form, labelled "Pay"', async () => {
    const backend = await scenario(created)
    const element = await fixture<PayButton>(html`<pay-button action=${backend.url} order-id="ord_9"></pay-button>`)
    expect(partText(element, 'label')).to.equal('Pay')
    const event = created$(element)
    button(element).click()
    await event
    const [request] = await backend.received(1)
    expect(JSON.parse(request?.body ?? '')).to.deep.equal({ orderId: 'ord_9' })
  })

  it('lets action and order-id override the form', async () => {
    const backend = await scenario(created)
    const element = await withForm('/test-backend/s/never')
    element.action = backend.url
    element.orderId = 'ord_override'
    const event = created$(element)
    button(element).click()
    await event
    const [request] = await backend.received(1)
    expect(JSON.parse(request?.body ?? '')).to.deep.equal({ orderId: 'ord_override', coupon: 'SPRING' })
  })

  it('sends one request for a double click, and shows and announces that it works', async () => {
    const answer = await gate()
    const backend = await scenario({ ...created, gate: answer.id })
    const element = await withForm(backend.url)
    const event = created$(element)
    button(element).click()
    button(element).click()
    await element.updateComplete
    expect(element.state).to.equal('working')
    expect(button(element).getAttribute('aria-busy')).to.equal('true')
    expect(button(element).getAttribute('aria-disabled')).to.equal('true')
    expect(shadow(element).querySelector('[part=spinner]')).to.exist
    const status = shadow(element).querySelector('[part=status]')
    expect(status?.getAttribute('role')).to.equal('status')
    expect(partText(element, 'status')).to.equal('Starting payment…')
    // Focus stays on the button while it works (aria-disabled, not disabled).
    button(element).focus()
    expect(shadow(element).activeElement).to.equal(button(element))
    await expect(element).to.be.accessible()
    button(element).click()
    expect(backend.asked()).to.have.length(1)
    await answer.open()
    await event
    expect(backend.asked()).to.have.length(1)
  })

  it('navigates to gatewayUrl when nobody prevents pay-created, and is accessible while redirecting', async () => {
    // A checkout answering 204 No Content: the browser goes there, and stays on this page.
    const checkout = await scenario({ status: 204 })
    const backend = await scenario({
      status: 201,
      body: { paymentId: 'pay_1', gatewayUrl: `${location.origin}${checkout.url}?from=button` },
    })
    const element = await withForm(backend.url)
    button(element).click()
    await waitUntil(() => element.state === 'redirecting', 'redirecting expected')
    const [navigation] = await checkout.received(1)
    expect(navigation?.url).to.equal(`${checkout.url}?from=button`)
    await element.updateComplete
    expect(partText(element, 'status')).to.equal('Redirecting…')
    expect(button(element).getAttribute('aria-busy')).to.equal('true')
    await expect(element).to.be.accessible()
    button(element).click()
    expect(backend.asked()).to.have.length(1)
  })

  it('shows and announces the backend error message, fires pay-error, and retries on the next click', async () => {
    const backend = await scenario({ status: 409, body: { code: 'order_paid', message: 'This order is already paid.' } }, created)
    const element = await withForm(backend.url)
    const failed = oneEvent(element, 'pay-error') as Promise<PayErrorEvent>
    button(element).click()
    const error = await failed
    expect(error.detail).to.deep.equal({ code: 'order_paid', message: 'This order is already paid.', status: 409 })
    expect(error.bubbles && error.composed).to.equal(true)
    await element.updateComplete
    expect(element.state).to.equal('error')
    expect(partText(element, 'status')).to.equal('Payment could not start. This order is already paid.')
    expect(button(element).getAttribute('aria-disabled')).to.equal('false')
    expect(shadow(element).querySelector('[part=spinner]')).to.equal(null)
    await expect(element).to.be.accessible()

    const event = created$(element)
    button(element).click()
    expect((await event).detail.paymentId).to.equal('pay_1')
    expect(await backend.requests()).to.have.length(2)
    await element.updateComplete
    expect(partText(element, 'status')).to.equal('')
  })

  it('says "Please try again." for an error answer without an error body', async () => {
    const backend = await scenario({ status: 502, text: '<h1>Bad Gateway</h1>' })
    const element = await withForm(backend.url)
    const failed = oneEvent(element, 'pay-error') as Promise<PayErrorEvent>
    button(element).click()
    expect((await failed).detail).to.deep.equal({ code: 'http_error', message: 'Please try again.', status: 502 })
    await element.updateComplete
    expect(partText(element, 'status')).to.equal('Payment could not start. Please try again.')
  })

  it('reports a network_error when the backend drops the connection', async () => {
    const backend = await scenario({ destroy: true })
    const element = await withForm(backend.url)
    const failed = oneEvent(element, 'pay-error') as Promise<PayErrorEvent>
    button(element).click()
    expect((await failed).detail.code).to.equal('network_error')
  })

  for (const gatewayUrl of ['javascript:alert(1)', 'data:text/html,<h1>hi</h1>', '/relative/checkout', 'ftp://till.example/x']) {
    it(`refuses the gatewayUrl ${gatewayUrl} (not an absolute http(s) URL)`, async () => {
      const backend = await scenario({ status: 201, body: { paymentId: 'pay_x', gatewayUrl } })
      const element = await withForm(backend.url)
      let createdFired = false
      element.addEventListener('pay-created', (event) => {
        createdFired = true
        event.preventDefault()
      })
      const failed = oneEvent(element, 'pay-error') as Promise<PayErrorEvent>
      button(element).click()
      expect((await failed).detail).to.deep.equal({ code: 'invalid_reply', message: 'Please try again.', status: 201 })
      expect(createdFired).to.equal(false)
      expect(element.state).to.equal('error')
    })
  }

  it('refuses a reply that is not a CreatePaymentReply', async () => {
    const backend = await scenario({ status: 200, body: { id: 'pay_1', url: 'https://till.example/' } })
    const element = await withForm(backend.url)
    const failed = oneEvent(element, 'pay-error') as Promise<PayErrorEvent>
    button(element).click()
    expect((await failed).detail.code).to.equal('invalid_reply')
  })

  it('sends nothing when pay-start is prevented', async () => {
    const backend = await scenario(created)
    const element = await withForm(backend.url)
    element.addEventListener('pay-start', (event) => event.preventDefault())
    neverNavigate(element)
    button(element).click()
    expect(backend.asked()).to.have.length(0)
    await element.updateComplete
    expect(element.state).to.equal('idle')
  })

  it('is not_configured without action or form', async () => {
    const element = await fixture<PayButton>(html`<pay-button order-id="ord_1"></pay-button>`)
    const failed = oneEvent(element, 'pay-error') as Promise<PayErrorEvent>
    button(element).click()
    expect((await failed).detail.code).to.equal('not_configured')
  })

  it('renders the shop’s wording from the label, working and error slots', async () => {
    const answer = await gate()
    const backend = await scenario({ status: 500, body: { code: 'internal_error', message: 'Try later.' }, gate: answer.id })
    const element = await withForm(
      backend.url,
      html`<span slot="label">Buy now</span><span slot="working">Un instant…</span><span slot="error">Oups.</span>`,
    )
    expect(partText(element, 'label')).to.equal('Buy now')
    button(element).click()
    await element.updateComplete
    expect(partText(element, 'status')).to.equal('Un instant…')
    const failed = oneEvent(element, 'pay-error')
    await answer.open()
    await failed
    await element.updateComplete
    expect(partText(element, 'status')).to.equal('Oups. Try later.')
    await expect(element).to.be.accessible()
  })

  it('is activated from the keyboard, with Enter and with Space', async () => {
    const backend = await scenario(created)
    const element = await withForm(backend.url)
    button(element).focus()
    let event = created$(element)
    await press('Enter')
    await event
    await waitUntil(() => element.state === 'idle')
    event = created$(element)
    await press('Space')
    await event
    expect(await backend.requests()).to.have.length(2)
  })

  it('does nothing while disabled (a native disabled button)', async () => {
    const backend = await scenario(created)
    const element = await withForm(backend.url)
    neverNavigate(element)
    element.disabled = true
    await element.updateComplete
    expect(button(element).disabled).to.equal(true)
    button(element).click()
    expect(backend.asked()).to.have.length(0)
    await expect(element).to.be.accessible()
  })

  it('aborts its request when removed from the page', async () => {
    const answer = await gate()
    const backend = await scenario({ ...created, gate: answer.id })
    const element = await withForm(backend.url)
    let fired = false
    element.addEventListener('pay-created', (event) => {
      fired = true
      event.preventDefault()
    })
    button(element).click()
    const [request] = backend.asked()
    expect(request?.signal?.aborted).to.equal(false)
    element.remove()
    expect(request?.signal?.aborted).to.equal(true)
    expect(element.state).to.equal('idle')
    await answer.open()
    expect(fired).to.equal(false)
  })

  it('can be defined twice without throwing (two bundles, a hot reload)', async () => {
    await import(`./define/pay-button.ts?again=${Date.now()}`)
    expect(customElements.get('pay-button')).to.exist
  })
})

describe('<pay-button> on a storefront page', () => {
  let frame: HTMLIFrameElement

  /** Loads a page with a fallback-form <pay-button> posting to `action` in an iframe the test owns. */
  async function page(action: string, define: boolean) {
    frame = await fixture<HTMLIFrameElement>(html`<iframe title="shop" style="width: 400px; height: 200px"></iframe>`)
    const loaded = oneEvent(frame, 'load')
    frame.src = `/test-backend/page?action=${encodeURIComponent(action)}&define=${define ? 1 : 0}`
    await loaded
    const view = frame.contentWindow
    if (!view) throw new Error('no frame window')
    if (define) await view.customElements.whenDefined('pay-button')
    const element = view.document.querySelector('pay-button')
    if (!element) throw new Error('no <pay-button> in the page')
    return { view, element }
  }

  /** The stand-in checkout page; with a gate, it answers once the test opens it. */
  const gateway = (held?: string) => `${location.origin}/test-backend/gateway${held ? `?gate=${held}` : ''}`

  it('works without JavaScript: the fallback form posts and the backend’s 303 leads to the checkout page', async () => {
    const backend = await scenario({ status: 303, location: gateway() })
    const { view, element } = await page(backend.url, false)
    expect(customElements.get('pay-button')).to.exist // defined here, not in the page
    expect(view.customElements.get('pay-button')).to.equal(undefined)
    const submit = element.querySelector('button')
    expect(submit?.getClientRects().length).to.be.greaterThan(0)
    const left = oneEvent(frame, 'load')
    submit?.click()
    await left
    expect(frame.contentWindow?.location.pathname).to.equal('/test-backend/gateway')
    const [request] = await backend.received(1)
    expect(request?.contentType).to.equal('application/x-www-form-urlencoded')
    expect(request?.body).to.equal('orderId=ord_page')
  })

  it('sends the buyer to gatewayUrl when nobody prevents pay-created, announcing it', async () => {
    // The checkout page answers once the test has seen the button announce the redirect.
    const checkout = await gate()
    const backend = await scenario({ status: 201, body: { paymentId: 'pay_nav', gatewayUrl: gateway(checkout.id) } })
    const { element } = await page(backend.url, true)
    const shadowRoot = element.shadowRoot
    const left = oneEvent(frame, 'load')
    shadowRoot?.querySelector('button')?.click()
    await waitUntil(() => element.state === 'redirecting', 'redirecting expected')
    await waitUntil(() => shadowRoot?.querySelector('[part=status]')?.textContent?.includes('Redirecting…'), 'announced')
    expect(shadowRoot?.querySelector('button')?.getAttribute('aria-busy')).to.equal('true')
    await checkout.open()
    await left
    expect(frame.contentWindow?.location.href).to.equal(gateway(checkout.id))
  })

  it('is usable again when the page comes back from the back/forward cache mid-redirect', async () => {
    // The checkout page never answers: the page is still there, mid-redirect, when it is shown again.
    const checkout = await gate()
    const backend = await scenario({ status: 201, body: { paymentId: 'pay_nav', gatewayUrl: gateway(checkout.id) } })
    const { view, element } = await page(backend.url, true)
    element.shadowRoot?.querySelector('button')?.click()
    await waitUntil(() => element.state === 'redirecting', 'redirecting expected')
    view.dispatchEvent(new PageTransitionEvent('pageshow', { persisted: true }))
    await waitUntil(() => element.state === 'idle', 'idle expected')
    expect(element.shadowRoot?.querySelector('button')?.getAttribute('aria-busy')).to.equal('false')
    frame.src = 'about:blank'
    await checkout.open()
  })

  it('sends no request before the click, and one when clicked', async () => {
    const backend = await scenario(created)
    const { view, element } = await page(backend.url, true)
    await (element as PayButton).updateComplete
    const toBackend = () => view.performance.getEntriesByType('resource').filter((entry) => entry.name.includes(backend.url)).length
    expect(toBackend()).to.equal(0)
    expect(await backend.requests()).to.have.length(0)
    element.addEventListener('pay-created', (event) => event.preventDefault())
    const answered = oneEvent(element, 'pay-created')
    button(element as PayButton).click()
    await answered
    expect(await backend.requests()).to.have.length(1)
  })

  it('shifts no layout when it upgrades from its no-JavaScript form', async () => {
    const { view } = await page((await scenario(created)).url, false)
    const shifts: number[] = []
    // The frame's own observer: its layout shifts are not reported to this window.
    const FrameObserver = (view as Window & { PerformanceObserver: typeof PerformanceObserver }).PerformanceObserver
    new FrameObserver((list) => {
      for (const entry of list.getEntries()) shifts.push((entry as unknown as { value: number }).value)
    }).observe({ type: 'layout-shift', buffered: true })
    const before = shifts.length
    const script = view.document.createElement('script')
    script.type = 'module'
    script.src = '/src/define/pay-button.ts'
    view.document.head.append(script)
    await view.customElements.whenDefined('pay-button')
    const element = view.document.querySelector('pay-button') as PayButton
    await element.updateComplete
    // Layout shifts are reported after the frame that paints them.
    await new Promise((resolve) => view.requestAnimationFrame(() => view.requestAnimationFrame(resolve)))
    expect(shifts.slice(before).reduce((sum, value) => sum + value, 0)).to.equal(0)
  })
})
