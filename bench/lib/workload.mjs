/**
 * What the benchmark asks of sendbox, shared by `bench/run.mjs` and `bench/ab.mjs`: the key, the
 * CLI flags, the readiness probe and the three endpoints with the email sent.
 */
import { getText } from './processes.mjs'

/** The headers of every request: the enterprise key the CLI is started with. */
export const AUTH = { authorization: 'Bearer bench', 'content-type': 'application/json' }
export const SEND_BODY = JSON.stringify({ to: 'ana@example.com', subject: 'Hello', html: '<p>Hi Ana</p>' })
export const READY_PATH = '/v1/subscribers?limit=1'
/** Subscribers the CLI seeds for the load runs. */
export const SUBSCRIBERS = 1000

/**
 * The keys of the load runs, one per endpoint, all of one account (same subscribers): a plan
 * allows at most 1,000,000 requests a minute per key, and the three endpoints run within a
 * minute at over 1,000,000 requests together.
 */
const KEYS = { send: 'bench', list: 'bench-list', byId: 'bench-id' }

/** The sandbox CLI's flags after its script: no UI, the seed, keys whose plan never limits the load. */
export const sandboxFlags = (port, subscribers = SUBSCRIBERS) => [
  '--no-ui',
  '--port',
  String(port),
  '--subscribers',
  String(subscribers),
  ...Object.values(KEYS).flatMap((key) => ['--api-key', `${key}:enterprise:bench`]),
  '--limit',
  'enterprise=1000000',
]

const authOf = (id) => ({ ...AUTH, authorization: `Bearer ${KEYS[id]}` })

/** The three endpoints measured; `subscriberId` is a seeded subscriber's. */
export const benchEndpoints = (subscriberId) => [
  {
    id: 'send',
    label: 'POST /v1/email/send',
    path: '/v1/email/send',
    method: 'POST',
    body: SEND_BODY,
    headers: authOf('send'),
  },
  {
    id: 'list',
    label: 'GET /v1/subscribers?page=1&limit=20',
    path: '/v1/subscribers?page=1&limit=20',
    method: 'GET',
    headers: authOf('list'),
  },
  {
    id: 'byId',
    label: 'GET /v1/subscribers/{id}',
    path: `/v1/subscribers/${subscriberId}`,
    method: 'GET',
    headers: authOf('byId'),
  },
]

/** The id of the first subscriber the CLI seeded (what `benchEndpoints` reads by id). */
export async function firstSubscriberId(port) {
  return JSON.parse((await getText(port, '/v1/subscribers?page=1&limit=20', AUTH)).text).data[0].id
}
