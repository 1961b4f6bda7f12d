// The dashboard's calls to its own server, under /dashboard/api/: the session cookie goes by itself; the CSRF
// token the session gave goes with every state-changing request. The API key never reaches this code.

export type User = { id: string; email: string; role: 'owner' | 'admin' | 'viewer'; partnerId: string; merchantId: string | null }
export type Signed = { user: User; csrfToken: string }

/** The spec's error body, as every refusal of the server carries it. */
export class ApiProblem extends Error {
  readonly status: number
  readonly code: string
  readonly issues: { field: string; message: string }[]
  constructor(status: number, body: { message?: string; code?: string; issues?: { field: string; message: string }[] }) {
    super(body.message ?? `HTTP ${status}`)
    this.status = status
    this.code = body.code ?? 'unknown'
    this.issues = body.issues ?? []
  }
}

let csrfToken = ''

async function call<T>(method: 'GET' | 'POST', path: string, body?: object, headers: Record<string, string> = {}): Promise<T> {
  const response = await fetch(`/dashboard/api/${path}`, {
    method,
    credentials: 'same-origin',
    headers: {
      accept: 'application/json',
      ...(body ? { 'content-type': 'application/json' } : {}),
      ...(method === 'POST' && csrfToken ? { 'x-csrf-token': csrfToken } : {}),
      ...headers,
    },
    ...(body ? { body: JSON.stringify(body) } : {}),
  })
  if (response.status === 204) return undefined as T
  const answer = (await response.json().catch(() => ({}))) as T & { message?: string; code?: string }
  if (!response.ok) throw new ApiProblem(response.status, answer)
  return answer
}

const remember = (signed: Signed): Signed => {
  csrfToken = signed.csrfToken
  return signed
}

export const api = {
  session: async () => remember(await call<Signed>('GET', 'session')),
  signIn: async (email: string, password: string) => remember(await call<Signed>('POST', 'sign-in', { email, password })),
  invitation: (token: string) =>
    call<{ email: string; role: string; expiresAt: string }>('GET', `invitations/${encodeURIComponent(token)}`),
  accept: async (token: string, password: string) =>
    remember(await call<Signed>('POST', `invitations/${encodeURIComponent(token)}/password`, { password })),
  passkeyForInvitation: async (token: string, register: (options: unknown) => Promise<unknown>) => {
    const path = `invitations/${encodeURIComponent(token)}/passkey`
    const { challengeId, options } = await call<{ challengeId: string; options: unknown }>('POST', `${path}/options`, {})
    return remember(await call<Signed>('POST', path, { challengeId, response: await register(options) }))
  },
  signInWithPasskey: async (authenticate: (options: unknown) => Promise<unknown>) => {
    const { challengeId, options } = await call<{ challengeId: string; options: unknown }>('POST', 'passkey/options', {})
    return remember(await call<Signed>('POST', 'passkey/sign-in', { challengeId, response: await authenticate(options) }))
  },
  signOut: () => call<void>('POST', 'sign-out'),
  signOutEverywhere: () => call<{ ended: number }>('POST', 'sign-out-everywhere'),
  payments: (query: string) => call<PaymentList>('GET', `payments${query ? `?${query}` : ''}`),
  apiKeys: () => call<{ data: ApiKey[] }>('GET', 'api-keys'),
  createApiKey: (label: string) => call<{ apiKey: ApiKey; key: string }>('POST', 'api-keys', { label }),
  revokeApiKey: (id: string) => call<{ status: string }>('POST', `api-keys/${encodeURIComponent(id)}/revoke`),
  team: () => call<Team>('GET', 'team'),
  invite: (body: { email: string; role: string; merchantId?: string }) =>
    call<{ invitationUrl: string; email: string; role: string; expiresAt: string }>('POST', 'invitations', body),
  changeRole: (userId: string, role: string) => call<{ role: string }>('POST', `team/${encodeURIComponent(userId)}/role`, { role }),
  removeMember: (userId: string) => call<{ status: string }>('POST', `team/${encodeURIComponent(userId)}/remove`),
  revokePasskey: (userId: string, passkeyId: string) =>
    call<{ status: string }>('POST', `team/${encodeURIComponent(userId)}/passkeys/${encodeURIComponent(passkeyId)}/revoke`),
  account: () => call<AccountView>('GET', 'account'),
  addPasskey: async (name: string, register: (options: unknown) => Promise<unknown>) => {
    const { challengeId, options } = await call<{ challengeId: string; options: unknown }>('POST', 'account/passkeys/options', {})
    return call<{ id: string; name: string }>('POST', 'account/passkeys', { challengeId, response: await register(options), name })
  },
  renamePasskey: (id: string, name: string) =>
    call<{ name: string }>('POST', `account/passkeys/${encodeURIComponent(id)}/rename`, { name }),
  removePasskey: (id: string) => call<{ status: string }>('POST', `account/passkeys/${encodeURIComponent(id)}/remove`),
  setPassword: (body: { currentPassword?: string; newPassword: string }) =>
    call<{ hasPassword: boolean }>('POST', 'account/password', body),
  endSession: (id: string) => call<{ status: string }>('POST', `account/sessions/${encodeURIComponent(id)}/end`),
  merchants: () => call<{ data: MerchantView[] }>('GET', 'merchants'),
  webhooks: (merchantId: string) =>
    call<{ data: Endpoint[]; eventTypes: string[] }>('GET', `merchants/${encodeURIComponent(merchantId)}/webhooks`),
  addEndpoint: (merchantId: string, body: { url: string; events: string[] }) =>
    call<{ endpoint: Endpoint; secret: string }>('POST', `merchants/${encodeURIComponent(merchantId)}/webhooks`, body),
  endpointAction: (merchantId: string, endpointId: string, action: 'enable' | 'disable' | 'rotate-secret' | 'delete' | 'test') =>
    call<{ secret?: string }>('POST', `merchants/${encodeURIComponent(merchantId)}/webhooks/${encodeURIComponent(endpointId)}/${action}`),
  deliveries: (merchantId: string, endpointId: string, query: string) =>
    call<{ data: Delivery[] }>(
      'GET',
      `merchants/${encodeURIComponent(merchantId)}/webhooks/${encodeURIComponent(endpointId)}/deliveries${query}`,
    ),
  redeliverEndpoint: (merchantId: string, endpointId: string, deliveryId: string) =>
    call<{ status: string }>(
      'POST',
      `merchants/${encodeURIComponent(merchantId)}/webhooks/${encodeURIComponent(endpointId)}/deliveries/${encodeURIComponent(deliveryId)}/redeliver`,
    ),
  unapplied: (merchantId: string, cursor?: string) =>
    call<{ data: UnappliedTransfer[]; nextCursor: string | null }>(
      'GET',
      `merchants/${encodeURIComponent(merchantId)}/unapplied-transfers${cursor ? `?cursor=${encodeURIComponent(cursor)}` : ''}`,
    ),
  refundUnapplied: (merchantId: string, body: { unappliedTransferId: string; destination?: string }) =>
    call<{ id: string; claimUrl: string | null; payUrl: string | null }>(
      'POST',
      `merchants/${encodeURIComponent(merchantId)}/unapplied-transfers/refunds`,
      body,
      { 'idempotency-key': crypto.randomUUID() },
    ),
  createMerchant: (body: { merchantName: string; merchantEmail: string; iconUrl?: string }) =>
    call<{ merchant: MerchantView }>('POST', 'merchants', body, { 'idempotency-key': crypto.randomUUID() }),
  updateMerchant: (id: string, body: { merchantName?: string; iconUrl?: string | null; settlementAddresses?: string[] }) =>
    call<{ merchant: MerchantView }>('POST', `merchants/${encodeURIComponent(id)}`, body),
  daily: (query: string) =>
    call<{ data: { day: string; payments: number; amounts: { currency: string; minor: string }[] }[] }>('GET', `payments/daily${query}`),
  payment: (id: string) => call<PaymentPage>('GET', `payments/${encodeURIComponent(id)}`),
  cancel: (id: string) => call<{ status: string }>('POST', `payments/${encodeURIComponent(id)}/cancel`),
  redeliver: (id: string, deliveryId: string) =>
    call<{ status: string }>('POST', `payments/${encodeURIComponent(id)}/deliveries/${encodeURIComponent(deliveryId)}/redeliver`),
  refund: (id: string, body: { amount?: string; destination?: string }) =>
    call<{ id: string; claimUrl: string | null; payUrl: string | null }>('POST', `payments/${encodeURIComponent(id)}/refunds`, body, {
      'idempotency-key': crypto.randomUUID(),
    }),
  auditLog: () => call<{ data: AuditEntry[] }>('GET', 'audit-log'),
}

export type ListedPayment = {
  paymentId: string
  referenceId: string
  status: string
  fiatAmount?: { unit: string; value: string; display: { decimals: number } }
  merchant: { name?: string }
  createdAt: string
}
export type PaymentList = {
  data: ListedPayment[]
  nextCursor: string | null
  previousCursor: string | null
  stats: { totalRevenue: { amount: number; currency: string }[]; totalTransactions: number; totalCustomers: number }
}
export type TimelineEntry = { kind: string; at: string } & Record<string, unknown>
export type PaymentPage = {
  paymentId: string
  referenceId: string
  status: string
  isFinal: boolean
  amount: { currency: string; value: string }
  createdAt: string
  expiresAt: string
  paid: {
    network: string
    token: { symbol: string; decimals: number; amount: string } | null
    rate: string | null
    buyer: string
    wallet: string | null
    transactionHash: string | null
    explorerUrl: string | null
  } | null
  timeline: TimelineEntry[]
  actions: { cancel: boolean; refund: boolean; redeliver: boolean }
}
export type UnappliedTransfer = {
  id: string
  transaction: { networkId: string; hash: string; logIndex: number | null }
  from: string
  to: string
  tokenAmount: { unit: string; value: string; display: { assetSymbol: string; decimals: number } | null }
  reason: string
  paymentId: string | null
  recordedAt: string
  explorerUrl: string | null
}
export type Endpoint = {
  id: string
  url: string
  events: string[]
  status: 'enabled' | 'disabled'
  disabledReason: string | null
  createdAt: string
  lastDelivery: { at: string; status: string } | null
}
export type Delivery = {
  id: string
  status: string
  nextAttemptAt: string | null
  event: { id: string; type: string; createdAt: string }
  attempts: {
    attemptedAt: string
    statusCode: number | null
    latencyMs: number
    error: string | null
    request: { headers: Record<string, string>; body: string } | null
  }[]
}
export type AccountView = {
  passkeys: { id: string; name: string; createdAt: string; lastUsedAt: string | null }[]
  hasPassword: boolean
  sessions: { id: string; createdAt: string; lastSeenAt: string; address: string | null; current: boolean }[]
}
export type MerchantView = {
  id: string
  name: string
  email: string
  status: string
  iconUrl: string | null
  settlementAddresses: string[]
}
export type Member = {
  id: string
  email: string
  role: 'owner' | 'admin' | 'viewer'
  merchant: { id: string; name: string } | null
  passkeys: { id: string; name: string; createdAt: string; lastUsedAt: string | null }[]
  hasPassword: boolean
  lastSignInAt: string | null
  status: 'active' | 'removed'
}
export type Team = {
  members: Member[]
  invitations: { id: string; email: string; role: string; merchantId: string | null; expiresAt: string }[]
}
export type ApiKey = {
  id: string
  prefix: string
  label: string | null
  createdBy: string | null
  createdAt: string
  lastUsedAt: string | null
  status: 'active' | 'revoked'
}
export type AuditEntry = { id: string; action: string; actor: string | null; target: string | null; address: string | null; at: string }
