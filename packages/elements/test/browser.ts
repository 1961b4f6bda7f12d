// Browser-side helpers of the tests: the scripted backend (test/backend.mjs) and wtr server commands.
import { waitUntil } from '@open-wc/testing'

/** What the element may be answered; see test/backend.mjs. */
export interface Reply {
  status?: number
  body?: unknown
  text?: string
  /** The id of a `gate()`: the answer waits until the test opens it. */
  gate?: string
  location?: string
  destroy?: boolean
}

/** A request the backend received. */
export interface Recorded {
  method: string
  url: string
  contentType: string | null
  accept: string | null
  body: string
}

/** A request this page's code started, as `fetch` was called: what an element asked for, at once. */
export interface Asked {
  /** Path and query. */
  url: string
  signal: AbortSignal | null
}

// Every fetch of this page, recorded when it is called: "sent nothing" is then known at once, without
// waiting for a request that might still be on its way to the backend.
const asked: Asked[] = []
const realFetch = window.fetch.bind(window)
window.fetch = (input, init) => {
  const url = new URL(input instanceof Request ? input.url : String(input), location.href)
  asked.push({ url: `${url.pathname}${url.search}`, signal: init?.signal ?? null })
  return realFetch(input, init)
}

/** A gate the backend holds answers at until the test opens it: "the backend answers now". */
export interface Gate {
  id: string
  open(): Promise<void>
}

export async function gate(): Promise<Gate> {
  const { id } = (await (await realFetch('/test-backend/gates', { method: 'POST' })).json()) as { id: string }
  return {
    id,
    async open() {
      await realFetch(`/test-backend/gates/${id}/open`, { method: 'POST' })
    },
  }
}

export interface Scenario {
  /** The backend's URL for this scenario, e.g. `/test-backend/s/s3`: the element's `action` or `verify`. */
  url: string
  /** What it has received so far. */
  requests(): Promise<Recorded[]>
  /** Resolves once it has received `count` requests. */
  received(count: number): Promise<Recorded[]>
  /** The requests this page started to it so far (see `Asked`). */
  asked(): Asked[]
}

/** Scripts the backend: its answers, in order; the last one repeats. */
export async function scenario(...replies: Reply[]): Promise<Scenario> {
  const response = await realFetch('/test-backend/scenarios', { method: 'POST', body: JSON.stringify({ replies }) })
  const { id } = (await response.json()) as { id: string }
  const requests = async () => ((await (await realFetch(`/test-backend/log/${id}`)).json()) as { requests: Recorded[] }).requests
  const url = `/test-backend/s/${id}`
  return {
    url,
    requests,
    asked: () => asked.filter((request) => request.url === url || request.url.startsWith(`${url}?`)),
    async received(count) {
      let seen: Recorded[] = []
      await waitUntil(
        async () => {
          seen = await requests()
          return seen.length >= count
        },
        `${count} request(s) expected`,
        { timeout: 4000 },
      )
      return seen
    },
  }
}

/**
 * Runs a web-test-runner server command, as `@web/test-runner-commands` does (that package is not a
 * dependency of this one): over the dev server's web socket, for this browser session.
 */
export async function command<T>(name: string, payload?: unknown): Promise<T> {
  const sessionId = new URL(location.href).searchParams.get('wtr-session-id')
  const socketModule = '/__web-dev-server__web-socket.js'
  const socket = (await import(socketModule)) as {
    sendMessageWaitForResponse(message: unknown): Promise<{ executed: boolean; result: T }>
  }
  const response = await socket.sendMessageWaitForResponse({ type: 'wtr-command', sessionId, command: name, payload })
  if (!response.executed) throw new Error(`no plugin ran the command ${name}`)
  return response.result
}

const handTimers: (() => void)[] = []

/**
 * Takes the timer an element schedules with `callback` (its own method) into the test's hands: `delays()`
 * lists the delays it asked for and has not cancelled, `fire()` runs the next one now. Every other timer
 * stays real. Undone by `restoreTimers()`, which an afterEach calls.
 */
export function handTimer(callback: () => void): { delays(): number[]; fire(): void } {
  const realSet = window.setTimeout
  const realClear = window.clearTimeout
  const pending = new Map<number, number>()
  // Ids no real timer has: real ones count up from 1.
  let next = -1
  window.setTimeout = ((handler: TimerHandler, ms?: number, ...rest: unknown[]) => {
    if (handler !== callback) return realSet(handler, ms, ...rest)
    const id = next--
    pending.set(id, ms ?? 0)
    return id
  }) as typeof window.setTimeout
  window.clearTimeout = ((id?: number) => {
    if (id !== undefined && pending.has(id)) pending.delete(id)
    else realClear(id)
  }) as typeof window.clearTimeout
  handTimers.push(() => {
    window.setTimeout = realSet
    window.clearTimeout = realClear
  })
  return {
    delays: () => [...pending.values()],
    fire() {
      const [id] = pending.keys()
      if (id === undefined) throw new Error('no timer is pending')
      pending.delete(id)
      callback()
    },
  }
}

export function restoreTimers(): void {
  for (const restore of handTimers.splice(0).reverse()) restore()
}

/** Presses a key in the real browser (Playwright's keyboard), on whatever has focus. */
export const press = (key: string) => command<void>('send-keys', { press: key })

/** The element's shadow root, which an open Lit element always has. */
export function shadow(element: HTMLElement): ShadowRoot {
  if (!element.shadowRoot) throw new Error(`<${element.localName}> has no shadow root`)
  return element.shadowRoot
}

/** The text a user sees in a part (slotted content included), whitespace collapsed. */
export function partText(element: HTMLElement, part: string): string {
  const node = shadow(element).querySelector<HTMLElement>(`[part~="${part}"]`)
  return node ? visibleText(node).replace(/\s+/g, ' ').trim() : ''
}

function visibleText(node: Node): string {
  if (node instanceof HTMLSlotElement) {
    const assigned = node.assignedNodes({ flatten: true })
    return (assigned.length > 0 ? assigned : [...node.childNodes]).map(visibleText).join('')
  }
  if (node instanceof Element) return [...node.childNodes].map(visibleText).join('')
  return node instanceof Text ? node.data : '' // not Lit's comment markers
}
