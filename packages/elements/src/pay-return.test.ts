import { expect, fixture, html, oneEvent, waitUntil } from '@open-wc/testing'
import { ifDefined } from 'lit/directives/if-defined.js'
import { gate, handTimer, partText, restoreTimers, scenario, shadow, type Reply } from '../test/browser.ts'
import './define/pay-return.ts'
import type { ReturnStatus, VerifyReply } from './protocol.ts'
import type { PayReturn, PayStatusEvent, ReturnView } from './pay-return.ts'
import type { PayErrorEvent } from './shared.ts'

const reply = (status: ReturnStatus, pollInMs = 2000): Reply => ({
  body: {
    status,
    isFinal: !['pending', 'processing'].includes(status),
    pollInMs,
    orderId: 'ord_1',
    paymentId: 'pay_1',
  },
})

const RETURN = '?order=ord_1&payment_id=pay_1'

function mount(verify: string, search = RETURN, content = html``) {
  return fixture<PayReturn>(html`<pay-return verify=${verify} .search=${search}>${content}</pay-return>`)
}

const shows = (element: PayReturn, view: ReturnView) =>
  waitUntil(() => element.view === view, `the ${view} view expected, not ${element.view}`)

/**
 * Mounts the element with its first answer held, and its poll timer in the test's hands before that
 * answer arrives: no poll ever happens by itself, the test fires each one.
 */
async function mountPolling(replies: Reply[], options: { pollInMs?: string; content?: ReturnType<typeof html> } = {}) {
  const first = await gate()
  const [head, ...rest] = replies
  const backend = await scenario({ ...head, gate: first.id }, ...rest)
  const element = await fixture<PayReturn>(
    html`<pay-return verify=${backend.url} poll-in-ms=${ifDefined(options.pollInMs)} .search=${RETURN}>${options.content ?? ''}</pay-return>`,
  )
  const timer = handTimer(element._check)
  await first.open()
  return { backend, element, timer }
}

/** Fires the element's poll timer and resolves with the reply it then shows. */
async function poll(element: PayReturn, timer: ReturnType<typeof handTimer>): Promise<VerifyReply> {
  const status = oneEvent(element, 'pay-status') as Promise<PayStatusEvent>
  timer.fire()
  return (await status).detail
}

describe('<pay-return>', () => {
  afterEach(() => restoreTimers())

  it('shows checking until the backend answers, in a polite live region', async () => {
    const answer = await gate()
    const backend = await scenario({ ...reply('succeeded'), gate: answer.id })
    const element = await mount(backend.url)
    expect(element.view).to.equal('checking')
    const region = shadow(element).querySelector('[part~=status]')
    expect(region?.getAttribute('role')).to.equal('status')
    expect(region?.getAttribute('part')).to.equal('status checking')
    expect(partText(element, 'status')).to.equal('Checking your payment…')
    expect(shadow(element).querySelector('[part=spinner]')).to.exist
    await expect(element).to.be.accessible()
    await answer.open()
    await shows(element, 'succeeded')
  })

  const views: [ReturnStatus, ReturnView, string][] = [
    ['pending', 'processing', 'Your payment is being processed…'],
    ['processing', 'processing', 'Your payment is being processed…'],
    ['succeeded', 'succeeded', 'Payment received. Thank you!'],
    ['failed', 'failed', 'The payment failed.'],
    ['expired', 'expired', 'The payment expired.'],
    ['cancelled', 'cancelled', 'The shop cancelled this payment.'],
    ['mismatch', 'mismatch', 'This payment is not the order’s.'],
  ]
  for (const [status, view, text] of views) {
    it(`shows ${view} when the backend says ${status}, and fires pay-status with its reply`, async () => {
      const backend = await scenario(reply(status))
      let seen: VerifyReply | undefined
      const element = await fixture<PayReturn>(
        html`<pay-return verify=${backend.url} .search=${RETURN} @pay-status=${(event: PayStatusEvent) => (seen = event.detail)}></pay-return>`,
      )
      await shows(element, view)
      expect(seen).to.deep.equal(reply(status).body)
      expect(partText(element, 'status')).to.equal(text)
      expect(shadow(element).querySelector('[part~=status]')?.getAttribute('part')).to.equal(`status ${view}`)
      expect(shadow(element).querySelector('[part=spinner]') !== null).to.equal(view === 'processing')
      await expect(element).to.be.accessible()
    })
  }

  it('asks GET <verify><the page query> with Accept: application/json', async () => {
    const backend = await scenario(reply('succeeded'))
    const element = await mount(backend.url)
    await shows(element, 'succeeded')
    const [request] = await backend.requests()
    expect(request?.method).to.equal('GET')
    expect(request?.accept).to.equal('application/json')
    expect(request?.url).to.equal(`${backend.url}?order=ord_1&payment_id=pay_1`)
  })

  it('merges the page query into a verify URL that has one (its own parameters win, none repeats)', async () => {
    const backend = await scenario(reply('succeeded'))
    const element = await mount(`${backend.url}?order=ord_1&shop=eu`, '?order=ord_evil&payment_id=pay_1&payment_id=pay_2&lang=fr')
    await shows(element, 'succeeded')
    const [request] = await backend.requests()
    expect(request?.url).to.equal(`${backend.url}?order=ord_1&shop=eu&payment_id=pay_1&lang=fr`)
  })

  it('never shows a status from the URL: ?status=succeeded with a backend saying failed shows failed', async () => {
    const backend = await scenario(reply('failed'))
    const element = await mount(backend.url, '?payment_id=pay_1&status=succeeded')
    await shows(element, 'failed')
    expect(partText(element, 'status')).to.equal('The payment failed.')
  })

  it('shows mismatch without asking when the URL has no payment_id', async () => {
    const backend = await scenario(reply('succeeded'))
    const element = await mount(backend.url, '?order=ord_1&status=succeeded')
    expect(element.view).to.equal('mismatch')
    expect(partText(element, 'status')).to.equal('This payment is not the order’s.')
    expect(backend.asked()).to.have.length(0)
  })

  it('reads location.search by default', async () => {
    const backend = await scenario(reply('succeeded'))
    const element = await fixture<PayReturn>(html`<pay-return verify=${backend.url}></pay-return>`)
    expect(element.search).to.equal(location.search)
    // The test page's URL has no payment_id (wtr's own parameters only).
    expect(element.view).to.equal('mismatch')
  })

  it('polls at the reply’s pollInMs until the payment is final, then stops', async () => {
    const { backend, element, timer } = await mountPolling([reply('pending', 80), reply('processing', 90), reply('succeeded', 80)])
    await shows(element, 'processing')
    expect(timer.delays()).to.deep.equal([80])
    expect((await poll(element, timer)).status).to.equal('processing')
    expect(timer.delays()).to.deep.equal([90])
    expect((await poll(element, timer)).status).to.equal('succeeded')
    expect(element.view).to.equal('succeeded')
    expect(timer.delays()).to.deep.equal([])
    expect(backend.asked()).to.have.length(3)
  })

  it('falls back to poll-in-ms when the reply has no pollInMs', async () => {
    const pending = { body: { status: 'pending', isFinal: false } }
    const { element, timer } = await mountPolling([pending, reply('succeeded')], { pollInMs: '60' })
    expect(element.pollInMs).to.equal(60)
    await shows(element, 'processing')
    expect(timer.delays()).to.deep.equal([60])
    expect((await poll(element, timer)).status).to.equal('succeeded')
  })

  it('never polls faster than 2000 ms when neither the reply nor poll-in-ms gives a usable delay', async () => {
    const { backend, element, timer } = await mountPolling([{ body: { status: 'pending', isFinal: false, pollInMs: 0 } }], {
      pollInMs: 'soon',
    })
    await shows(element, 'processing')
    expect(timer.delays()).to.deep.equal([2000])
    expect(backend.asked()).to.have.length(1)
  })

  it('defaults poll-in-ms to 2000', async () => {
    const element = await fixture<PayReturn>(html`<pay-return .search=${'?order=1'}></pay-return>`)
    expect(element.pollInMs).to.equal(2000)
  })

  it('stops polling when removed from the page', async () => {
    const { backend, element, timer } = await mountPolling([reply('pending', 150)])
    await shows(element, 'processing')
    expect(timer.delays()).to.deep.equal([150])
    element.remove()
    expect(timer.delays()).to.deep.equal([])
    expect(backend.asked()).to.have.length(1)
  })

  it('asks again when put back on the page', async () => {
    const { backend, element, timer } = await mountPolling([reply('pending', 5000), reply('succeeded')])
    await shows(element, 'processing')
    const parent = element.parentElement
    element.remove()
    parent?.append(element)
    await shows(element, 'succeeded')
    expect(backend.asked()).to.have.length(2)
    expect(timer.delays()).to.deep.equal([])
  })

  it('asks again, from the new URL, when verify changes; not while off the page', async () => {
    const answer = await gate()
    const first = await scenario({ ...reply('pending', 5000), gate: answer.id })
    const second = await scenario(reply('succeeded'))
    const element = await mount(first.url)
    handTimer(element._check)
    await answer.open()
    await shows(element, 'processing')
    element.verify = second.url
    await shows(element, 'succeeded')
    const parent = element.parentElement
    element.remove()
    element.verify = first.url
    await element.updateComplete
    expect(first.asked()).to.have.length(1)
    parent?.append(element) // and on the page again, it asks
    expect(first.asked()).to.have.length(2)
    await first.received(2)
  })

  it('shows the error view with the backend’s message and a retry button, fires pay-error; retry asks again', async () => {
    const backend = await scenario(
      { status: 410, body: { code: 'order_cancelled', message: 'This order was cancelled.' } },
      reply('succeeded'),
    )
    const element = await mount(backend.url)
    const failed = (await oneEvent(element, 'pay-error')) as PayErrorEvent
    expect(failed.detail).to.deep.equal({ code: 'order_cancelled', message: 'This order was cancelled.', status: 410 })
    expect(failed.bubbles && failed.composed).to.equal(true)
    await shows(element, 'error')
    await element.updateComplete
    expect(partText(element, 'status')).to.equal('Could not check your payment. This order was cancelled.')
    const retry = shadow(element).querySelector<HTMLButtonElement>('[part=retry]')
    expect(retry?.textContent).to.equal('Try again')
    await expect(element).to.be.accessible()

    retry?.focus()
    retry?.click()
    await element.updateComplete
    expect(element.view).to.equal('checking')
    // The button it had is gone: the region has the focus, not the body.
    expect(shadow(element).activeElement).to.equal(shadow(element).querySelector('[part~=status]'))
    await shows(element, 'succeeded')
    expect(await backend.requests()).to.have.length(2)
  })

  it('shows error when the backend cannot be reached, and stops polling', async () => {
    // Every request after the first is dropped: Chromium retries a GET whose connection was reset once.
    const { backend, element, timer } = await mountPolling([reply('pending', 50), { destroy: true }])
    await shows(element, 'processing')
    const failed = oneEvent(element, 'pay-error') as Promise<PayErrorEvent>
    timer.fire()
    expect((await failed).detail.code).to.equal('network_error')
    expect(element.view).to.equal('error')
    expect(timer.delays()).to.deep.equal([])
    expect(backend.asked()).to.have.length(2)
  })

  it('shows error for a reply that is not a VerifyReply (an unknown status too)', async () => {
    const backend = await scenario({ body: { status: 'paid', isFinal: true, pollInMs: 0 } })
    const element = await mount(backend.url)
    const failed = (await oneEvent(element, 'pay-error')) as PayErrorEvent
    expect(failed.detail).to.deep.equal({ code: 'invalid_reply', message: 'Please try again.', status: 200 })
  })

  it('is not_configured without verify', async () => {
    const element = await fixture<PayReturn>(html`<pay-return .search=${RETURN}></pay-return>`)
    expect(element.view).to.equal('error')
  })

  it('words each view with the shop’s slotted content, headings included', async () => {
    const { element, timer } = await mountPolling([reply('pending', 60), reply('succeeded')], {
      content: html`<p slot="processing">Un instant…</p>
        <h2 slot="succeeded">Merci !</h2>
        <p slot="succeeded">Votre commande est en route.</p>`,
    })
    await shows(element, 'processing')
    await element.updateComplete
    expect(partText(element, 'status')).to.equal('Un instant…')
    await poll(element, timer)
    await element.updateComplete
    expect(partText(element, 'status')).to.equal('Merci !Votre commande est en route.')
    await expect(element).to.be.accessible()
  })

  it('moves nothing on the page between views: the element keeps its place and its neighbours theirs', async () => {
    const answer = await gate()
    const backend = await scenario({ ...reply('pending', 60), gate: answer.id }, reply('succeeded'))
    const wrapper = await fixture<HTMLDivElement>(html`<div>
      <pay-return verify=${backend.url} .search=${RETURN}></pay-return>
      <p id="after">Continue shopping</p>
    </div>`)
    const element = wrapper.querySelector('pay-return')
    if (!element) throw new Error('no element')
    const timer = handTimer(element._check)
    await answer.open()
    await shows(element, 'processing')
    const before = wrapper.querySelector('#after')?.getBoundingClientRect().top
    await poll(element, timer)
    await element.updateComplete
    expect(wrapper.querySelector('#after')?.getBoundingClientRect().top).to.equal(before)
  })
})
