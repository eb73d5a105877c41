/**
 * What the benchmark asks of sendbox, shared by `bench/run.mjs` and `bench/ab.mjs`: the key, the
 * CLI flags, the readiness probe and the three endpoints with the email sent.
 */

/** The headers of every request: the enterprise key the CLI is started with. */
export const AUTH = { authorization: 'Bearer bench', 'content-type': 'application/json' }
export const SEND_BODY = JSON.stringify({ to: 'ana@example.com', subject: 'Hello', html: '<p>Hi Ana</p>' })
export const READY_PATH = '/v1/subscribers?limit=1'
/** Subscribers the CLI seeds for the load runs. */
export const SUBSCRIBERS = 1000

/** The sandbox CLI's flags after its script: no UI, the seed, a key whose plan never limits the load. */
export const sandboxFlags = (port, subscribers = SUBSCRIBERS) => [
  '--no-ui', '--port', String(port), '--subscribers', String(subscribers),
  '--api-key', 'bench:enterprise', '--limit', 'enterprise=1000000',
]

/** The three endpoints measured; `subscriberId` is a seeded subscriber's. */
export const benchEndpoints = (subscriberId) => [
  { id: 'send', label: 'POST /v1/email/send', path: '/v1/email/send', method: 'POST', body: SEND_BODY },
  { id: 'list', label: 'GET /v1/subscribers?page=1&limit=20', path: '/v1/subscribers?page=1&limit=20', method: 'GET' },
  { id: 'byId', label: 'GET /v1/subscribers/{id}', path: `/v1/subscribers/${subscriberId}`, method: 'GET' },
]
