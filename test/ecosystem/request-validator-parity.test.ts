import addFormatsModule from 'ajv-formats'
import { OpenAPIBackend, type Document } from 'openapi-backend'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildOpenApiDocument } from '../../src/http/openapi-document.js'
import { direct } from '../helpers.js'

/**
 * A validator fed our OpenAPI document must judge a request exactly as the server does (issue 14):
 * every request of the table goes through `openapi-backend`'s request validator (a third-party
 * library: Ajv under it, not our code) and through the sandbox, and both must accept it, or both
 * reject it. State-dependent answers (an unknown id, a duplicate email, the rate limit) are not in
 * the table: no request schema can know them.
 */

const addFormats = addFormatsModule as unknown as (ajv: unknown) => unknown
const KEY = 'test_enterprise'
const email = { to: 'ana@example.com', subject: 'Hi', html: '<p>Hi</p>' }
const sms = { to: '+14155550123', message: 'hello' }
const whatsapp = { to: '+14155550123', template: 'order_update', language: 'en_US' }
const fault = { status: 503, path: '/v1/nothing' }

type Row = [
  label: string,
  method: string,
  path: string,
  body: unknown,
  accept: boolean,
  headers?: Record<string, string>,
]

/** `{id}` in a path is replaced by a subscriber created before the table runs. */
const TABLE: Row[] = [
  // POST /email/send
  ['email: valid', 'POST', '/v1/email/send', email, true],
  [
    'email: from with name',
    'POST',
    '/v1/email/send',
    { ...email, from: { email: 'shop@example.com', name: 'Shop' } },
    true,
  ],
  ['email: label ending with -', 'POST', '/v1/email/send', { ...email, to: 'u@example-.com' }, false],
  ['email: label starting with -', 'POST', '/v1/email/send', { ...email, to: 'u@-example.com' }, false],
  ['email: local part of 65', 'POST', '/v1/email/send', { ...email, to: `${'a'.repeat(65)}@example.com` }, false],
  ['email: domain label of 64', 'POST', '/v1/email/send', { ...email, to: `a@${'b'.repeat(64)}.com` }, false],
  ['email: missing subject', 'POST', '/v1/email/send', { to: email.to, html: 'x' }, false],
  ['email: unknown field', 'POST', '/v1/email/send', { ...email, firstName: 'Ana' }, false],
  ['email: unknown field in from', 'POST', '/v1/email/send', { ...email, from: { email: 'a@b.co', foo: 1 } }, false],
  ['email: from without email', 'POST', '/v1/email/send', { ...email, from: { name: 'Shop' } }, false],
  ['email: empty subject', 'POST', '/v1/email/send', { ...email, subject: '' }, false],
  ['email: subject of 999', 'POST', '/v1/email/send', { ...email, subject: 'x'.repeat(999) }, false],
  [
    'email: subject of 998 emoji (code points)',
    'POST',
    '/v1/email/send',
    { ...email, subject: '🙂'.repeat(998) },
    true,
  ],
  ['email: empty html', 'POST', '/v1/email/send', { ...email, html: '' }, false],
  ['email: to as an array', 'POST', '/v1/email/send', { ...email, to: ['ana@example.com'] }, false],
  ['email: no body', 'POST', '/v1/email/send', undefined, false],
  // POST /sms/send
  ['sms: valid', 'POST', '/v1/sms/send', sms, true],
  ['sms: sender name', 'POST', '/v1/sms/send', { ...sms, from: 'Acme' }, true],
  ['sms: sender name of 12', 'POST', '/v1/sms/send', { ...sms, from: 'AcmeCorpLtd1' }, false],
  ['sms: short number', 'POST', '/v1/sms/send', { ...sms, to: '+1234' }, false],
  ['sms: message of 1601', 'POST', '/v1/sms/send', { ...sms, message: 'x'.repeat(1601) }, false],
  ['sms: message as a number', 'POST', '/v1/sms/send', { ...sms, message: 5 }, false],
  // POST /whatsapp/send
  ['whatsapp: valid with parameters', 'POST', '/v1/whatsapp/send', { ...whatsapp, parameters: { name: 'Ana' } }, true],
  ['whatsapp: uppercase template', 'POST', '/v1/whatsapp/send', { ...whatsapp, template: 'Order' }, false],
  ['whatsapp: language en-US', 'POST', '/v1/whatsapp/send', { ...whatsapp, language: 'en-US' }, false],
  ['whatsapp: parameter not a string', 'POST', '/v1/whatsapp/send', { ...whatsapp, parameters: { n: 1 } }, false],
  // POST /subscribers
  ['subscriber: email only', 'POST', '/v1/subscribers', { email: 'bo@example.com' }, true],
  ['subscriber: phone, email null', 'POST', '/v1/subscribers', { email: null, phone: '+14155550199' }, true],
  ['subscriber: neither email nor phone', 'POST', '/v1/subscribers', { first_name: 'Bo' }, false],
  ['subscriber: email null alone', 'POST', '/v1/subscribers', { email: null }, false],
  [
    'subscriber: 101 tags',
    'POST',
    '/v1/subscribers',
    { phone: '+14155550198', tags: Array.from({ length: 101 }, (_, i) => `t${i}`) },
    false,
  ],
  ['subscriber: empty tag', 'POST', '/v1/subscribers', { phone: '+14155550197', tags: [''] }, false],
  ['subscriber: invalid email', 'POST', '/v1/subscribers', { email: 'u@example-.com' }, false],
  // PUT /subscribers/{id}
  ['update: one field', 'PUT', '/v1/subscribers/{id}', { first_name: 'Cy' }, true],
  ['update: empty body object', 'PUT', '/v1/subscribers/{id}', {}, false],
  ['update: email and phone both null', 'PUT', '/v1/subscribers/{id}', { email: null, phone: null }, false],
  ['update: unknown field', 'PUT', '/v1/subscribers/{id}', { nickname: 'x' }, false],
  // GET /subscribers: page and limit are digit strings
  ['list: page and limit', 'GET', '/v1/subscribers?page=1&limit=100', undefined, true],
  ['list: leading zeros', 'GET', '/v1/subscribers?page=007&limit=020', undefined, true],
  ['list: page at its maximum', 'GET', '/v1/subscribers?page=1000000000', undefined, true],
  ['list: page past its maximum', 'GET', '/v1/subscribers?page=1000000001', undefined, false],
  ['list: page past 2^53 − 1', 'GET', '/v1/subscribers?page=99999999999999999999', undefined, false],
  ['list: limit 101', 'GET', '/v1/subscribers?limit=101', undefined, false],
  ['list: limit 1.0', 'GET', '/v1/subscribers?limit=1.0', undefined, false],
  ['list: limit 1e1', 'GET', '/v1/subscribers?limit=1e1', undefined, false],
  ['list: page 0', 'GET', '/v1/subscribers?page=0', undefined, false],
  ['list: page -1', 'GET', '/v1/subscribers?page=-1', undefined, false],
  ['list: empty limit', 'GET', '/v1/subscribers?limit=', undefined, false],
  ['list: unknown parameter ignored', 'GET', '/v1/subscribers?sort=asc', undefined, true],
  // Prefer
  ['prefer: delay=100', 'GET', '/v1/subscribers', undefined, true, { prefer: 'delay=100' }],
  ['prefer: other preference ignored', 'GET', '/v1/subscribers', undefined, true, { prefer: 'return=minimal' }],
  ['prefer: code below 300 ignored', 'GET', '/v1/subscribers', undefined, true, { prefer: 'code=200' }],
  ['prefer: delay=99999999', 'GET', '/v1/subscribers', undefined, false, { prefer: 'delay=99999999' }],
  ['prefer: delay=60001', 'GET', '/v1/subscribers', undefined, false, { prefer: 'delay=60001' }],
  ['prefer: code=418', 'GET', '/v1/subscribers', undefined, false, { prefer: 'code=418' }],
  ['prefer: code=abc', 'GET', '/v1/subscribers', undefined, false, { prefer: 'code=abc' }],
  ['prefer: bare code', 'GET', '/v1/subscribers', undefined, false, { prefer: 'code' }],
  // Controls: faults
  ['fault: valid', 'POST', '/__sandbox/faults', fault, true],
  ['fault: method in lower case', 'POST', '/__sandbox/faults', { ...fault, method: 'get' }, true],
  ['fault: status 418', 'POST', '/__sandbox/faults', { ...fault, status: 418 }, false],
  ['fault: status as a string', 'POST', '/__sandbox/faults', { ...fault, status: '503' }, false],
  ['fault: method FETCH', 'POST', '/__sandbox/faults', { ...fault, method: 'FETCH' }, false],
  ['fault: unknown field', 'POST', '/__sandbox/faults', { ...fault, nope: 1 }, false],
  ['fault: delay_ms 60001', 'POST', '/__sandbox/faults', { ...fault, delay_ms: 60_001 }, false],
  ['fault: probability 1.5', 'POST', '/__sandbox/faults', { ...fault, probability: 1.5 }, false],
  ['fault: relative path', 'POST', '/__sandbox/faults', { ...fault, path: 'v1/sms/send' }, false],
  ['fault: code not snake_case', 'POST', '/__sandbox/faults', { ...fault, code: 'Bad-Code' }, false],
  ['fault: missing status', 'POST', '/__sandbox/faults', { path: '/v1/x' }, false],
  // Controls: queries
  ['messages: channel sms', 'GET', '/__sandbox/messages?channel=sms', undefined, true],
  ['messages: channel fax', 'GET', '/__sandbox/messages?channel=fax', undefined, false],
  ['messages: status lost', 'GET', '/__sandbox/messages?status=lost', undefined, false],
  ['messages: since ISO', 'GET', '/__sandbox/messages?since=2026-11-22T12:00:00Z', undefined, true],
  ['messages: since offset', 'GET', '/__sandbox/messages?since=2026-11-22T12:00:00.123%2B01:00', undefined, true],
  ['messages: since Unix ms', 'GET', '/__sandbox/messages?since=1700000000000', undefined, true],
  ['messages: since yesterday', 'GET', '/__sandbox/messages?since=yesterday', undefined, false],
  ['messages: limit 0', 'GET', '/__sandbox/messages?limit=0', undefined, false],
  ['reset: scope journal', 'POST', '/__sandbox/reset?scope=journal', undefined, true],
  ['reset: scope everything', 'POST', '/__sandbox/reset?scope=everything', undefined, false],
  ['requests: limit 1e1', 'GET', '/__sandbox/requests?limit=1e1', undefined, false],
  // Controls of issue 10
  ['wait: an SMS is there', 'GET', '/__sandbox/messages/wait?channel=sms&timeout=0', undefined, true],
  ['wait: timeout 60001', 'GET', '/__sandbox/messages/wait?channel=sms&timeout=60001', undefined, false],
  ['wait: timeout 1e3', 'GET', '/__sandbox/messages/wait?channel=sms&timeout=1e3', undefined, false],
  ['wait: q too long', 'GET', `/__sandbox/messages/wait?q=${'x'.repeat(1025)}&timeout=0`, undefined, false],
  ['clock: freeze', 'POST', '/__sandbox/clock', { freeze: true }, true],
  ['clock: advance and reset', 'POST', '/__sandbox/clock', { reset: true, advance_ms: 1000 }, true],
  ['clock: empty', 'POST', '/__sandbox/clock', {}, false],
  ['clock: negative advance', 'POST', '/__sandbox/clock', { advance_ms: -1 }, false],
  ['clock: fractional advance', 'POST', '/__sandbox/clock', { advance_ms: 0.5 }, false],
  ['clock: reset false', 'POST', '/__sandbox/clock', { reset: false }, false],
  ['clock: unknown field', 'POST', '/__sandbox/clock', { rewind_ms: 5 }, false],
  ['keys', 'GET', '/__sandbox/keys', undefined, true],
]

describe('the OpenAPI document judges requests as the server does (openapi-backend request validator)', () => {
  const BASE = 'https://api.sendbox.test/v1'
  const sandbox = direct({ apiKeys: { [KEY]: 'enterprise' }, baseUrl: BASE })
  const validator = new OpenAPIBackend({
    definition: buildOpenApiDocument({ baseUrl: BASE }) as unknown as Document,
    // `quick` skips its own document check (kogosoftware's openapi-schema-validator knows OpenAPI 3.0
    // only; test/ecosystem/openapi.test.ts checks 3.1 validity) and compiles validators on first use.
    quick: true,
    strict: true,
    ignoreTrailingSlashes: false,
    // ajv-formats gives `format: email` and `date-time` their standard meaning (openapi-backend's defaults know few).
    customizeAjv: (ajv) => addFormats(ajv) as typeof ajv,
  })
  let subscriberId = ''
  beforeAll(async () => {
    await validator.init()
    const created = await sandbox.call(
      'POST',
      '/subscribers',
      { email: 'cy@example.com', phone: '+14155550100' },
      { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
    )
    subscriberId = ((await created.json()) as { id: string }).id
  })
  afterAll(() => sandbox.dispose())

  it('the table is large enough and has both verdicts', () => {
    expect(TABLE.length).toBeGreaterThanOrEqual(40)
    expect(TABLE.filter((row) => row[4]).length).toBeGreaterThan(15)
    expect(TABLE.filter((row) => !row[4]).length).toBeGreaterThan(15)
  })

  it.each(TABLE)('%s', async (_label, method, rawPath, body, accept, extra = {}) => {
    const path = rawPath.replace('{id}', subscriberId)
    const headers: Record<string, string> = { 'content-type': 'application/json', ...extra }
    if (!path.startsWith('/__sandbox')) headers.authorization = `Bearer ${KEY}`
    const url = new URL(path, 'https://api.sendbox.test')

    // The server's verdict: 2xx is accepted.
    const response = await sandbox.call(method, path.startsWith('/v1') ? path.slice(3) : `/..${path}`, body, headers)
    const server = response.status >= 200 && response.status < 300
    sandbox.sandbox.faults.clear()

    // The validator's: API paths are relative to the base URL (the document's server), controls to the origin.
    const result = validator.validateRequest({
      method,
      path: path.startsWith('/v1') ? url.pathname.slice(3) : url.pathname,
      query: url.search.slice(1),
      headers,
      body,
    })
    const detail = `server ${response.status} ${server ? '' : await response.text()}; validator ${JSON.stringify(result.errors?.map((e) => `${e.instancePath} ${e.message}`))}`
    expect(server, `server verdict (${detail})`).toBe(accept)
    expect(result.valid, `validator verdict (${detail})`).toBe(accept)
  })
})
