import { Validator } from '@seriousme/openapi-schema-validator'
// ajv (2020-12 dialect) and ajv-formats come with @seriousme/openapi-schema-validator; they check
// real answers against the schemas the document publishes.
import { Ajv2020 } from 'ajv/dist/2020.js'
import addFormatsModule from 'ajv-formats'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createSandbox } from '../../src/index.js'
import { RouteHandler } from '../../src/http/route-handler.js'
import { buildOpenApiDocument, type OpenApiDocument } from '../../src/http/openapi-document.js'
import { ERROR_CODES, ERROR_CODE_NAMES } from '../../src/contract/error.js'
import { auth, inProcess } from '../helpers.js'
import fc from 'fast-check'
import { z } from 'zod'
import { ROUTES, type Route } from '../../src/http/routes.js'
import { isBodySchema } from '../../src/http/route.js'
import { valid } from '../fuzz/schema-fuzz.js'

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020

type Operation = {
  operationId: string
  responses: Record<string, { $ref?: string; content?: Record<string, { schema: unknown }> }>
}

/** `METHOD https://host/path/{param}` for every operation of the document, servers applied. */
function documentedRoutes(doc: OpenApiDocument): string[] {
  const rootServer = (doc.servers as Array<{ url: string }>)[0].url
  const routes: string[] = []
  for (const [path, item] of Object.entries(doc.paths)) {
    const server = (item.servers as Array<{ url: string }> | undefined)?.[0].url ?? rootServer
    for (const method of ['get', 'post', 'put', 'delete', 'patch']) {
      if (item[method]) routes.push(`${method.toUpperCase()} ${server}${path}`)
    }
  }
  return routes.sort()
}

/** The same, read off the MSW handlers: every route handler's label (catch-alls have none). */
function servedRoutes(baseUrl: string): string[] {
  const sandbox = createSandbox({ baseUrl })
  try {
    return sandbox.handlers
      .flatMap((handler) => (handler instanceof RouteHandler && handler.label ? [handler.label] : []))
      .sort()
  } finally {
    sandbox.dispose()
  }
}

describe('the OpenAPI document', () => {
  it('is a valid OpenAPI 3.1 document', async () => {
    const validator = new Validator()
    const result = await validator.validate(buildOpenApiDocument())
    expect(result.errors ?? []).toEqual([])
    expect(result.valid).toBe(true)
    expect(validator.version).toBe('3.1')
  })

  it.each(['https://api.sendbox.test/v1', 'http://127.0.0.1:4010/v1', 'https://api.example.com/api/v1'])(
    'lists exactly the routes the handlers serve (base URL %s)',
    (baseUrl) => {
      const documented = documentedRoutes(buildOpenApiDocument({ baseUrl }))
      const served = servedRoutes(baseUrl)
      expect(served.length).toBeGreaterThan(10)
      expect(documented).toEqual(served)
    },
  )

  it('tags the sandbox controls apart, secures the API with a bearer scheme and shares one error object', () => {
    const doc = buildOpenApiDocument()
    expect(doc.components.securitySchemes).toMatchObject({ bearerAuth: { type: 'http', scheme: 'bearer' } })
    expect(doc.security).toEqual([{ bearerAuth: [] }])
    for (const [path, item] of Object.entries(doc.paths)) {
      for (const operation of Object.values(item).filter(
        (v): v is { tags: string[]; security?: unknown } => typeof v === 'object' && v !== null && 'tags' in v,
      )) {
        expect(operation.tags).toEqual(
          path.startsWith('/__sandbox') ? ['sandbox'] : [expect.not.stringMatching(/^sandbox$/)],
        )
        if (['/__sandbox/openapi.json', '/__sandbox/livez', '/__sandbox/readyz'].includes(path))
          expect(operation.security).toEqual([{}])
        else if (path === '/__sandbox/messages/{id}/html')
          expect(operation.security).toEqual([{}, { sandboxAdmin: [] }, { previewToken: [] }])
        else if (path.startsWith('/__sandbox')) expect(operation.security).toEqual([{}, { sandboxAdmin: [] }])
      }
    }
    expect(doc.components.schemas.Error).toMatchObject({
      required: ['error'],
      properties: { error: { required: ['code', 'message'] } },
    })
    // Request bodies refuse unknown fields, as the API does (400 unknown_parameter), nested ones too.
    expect(doc.components.schemas.EmailSendRequest).toMatchObject({
      additionalProperties: false,
      properties: { from: { additionalProperties: false } },
    })
  })
})

describe('what the document states beyond the shapes (issue 27, fidelity)', () => {
  const doc = buildOpenApiDocument() as OpenApiDocument & Record<string, unknown>
  const operations = Object.values(doc.paths).flatMap((item) =>
    Object.values(item).filter((op): op is Operation => typeof op === 'object' && op !== null && 'operationId' in op),
  )

  it('declares 403 on every operation (forbidden_host anywhere, forbidden_origin on the controls), in the error shape', () => {
    expect(operations.length).toBeGreaterThan(15)
    for (const op of operations)
      expect(op.responses['403'], op.operationId).toEqual({ $ref: '#/components/responses/Forbidden' })
    expect(
      JSON.stringify((doc.components as unknown as { responses: Record<string, unknown> }).responses.Forbidden),
    ).toMatch(/forbidden_host.*forbidden_origin/)
  })

  it('describes every code of ERROR_CODES in an answer of its status (a new code is named here until a description lists it)', () => {
    const shared = (doc.components as unknown as { responses: Record<string, { description: string }> }).responses
    const descriptions = new Map<string, string[]>()
    for (const op of operations) {
      for (const [status, answer] of Object.entries(op.responses)) {
        const text = answer.$ref
          ? shared[answer.$ref.split('/').at(-1)!].description
          : (answer as { description: string }).description
        descriptions.set(status, [...(descriptions.get(status) ?? []), text])
      }
    }
    const missing = ERROR_CODE_NAMES.filter((code) => {
      const { status } = ERROR_CODES[code]
      const texts = [
        ...(descriptions.get(String(status)) ?? []),
        ...(status >= 500 ? (descriptions.get('5XX') ?? []) : []),
      ]
      return !texts.some((text) => text.includes(`\`${code}\``))
    })
    expect(
      missing,
      "codes no OpenAPI answer of their status names: give a route an `answers` entry, or list the code in src/http/openapi.ts's errorResponses",
    ).toEqual([])
  })

  it("lets a fault's own code through Error.code, and still lists the known ones", () => {
    const ajv = addFormats(new Ajv2020({ strict: false }))
    ajv.addSchema(doc.components as object, 'components')
    const error = JSON.parse(
      JSON.stringify((doc.components as unknown as { schemas: Record<string, unknown> }).schemas.Error).replaceAll(
        '#/components/schemas/',
        'components#/schemas/',
      ),
    )
    const validate = ajv.compile(error)
    expect(validate({ error: { code: 'service_unavailable', message: 'forced' } })).toBe(true)
    expect(validate({ error: { code: 'invalid_email', message: 'x', param: 'to' } })).toBe(true)
    expect(validate({ error: { code: 'Not Snake', message: 'x' } })).toBe(false)
  })

  it('lists the magic recipients and states the body cap', () => {
    const magic = doc['x-sendbox-magic-recipients'] as Array<{ recipient: string; outcome: string; status?: number }>
    expect(magic).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ recipient: 'bounce@sendbox.test', outcome: 'failed' }),
        expect.objectContaining({ recipient: '+15005550009', outcome: 'reject', status: 400, code: 'invalid_phone' }),
      ]),
    )
    expect(doc['x-sendbox-max-body-bytes']).toBe(1_048_576)
    const send = operations.find((op) => op.operationId === 'sendEmail') as unknown as
      { requestBody: { description: string } } | undefined
    expect(send?.requestBody.description).toMatch(/1048576 bytes.*payload_too_large/)
  })
})

describe('GET /__sandbox/openapi.json', () => {
  let api: ReturnType<typeof inProcess>
  beforeAll(() => {
    api = inProcess({ baseUrl: 'https://api.example.com/v1', adminToken: 'adm_secret' })
  })
  afterAll(() => api.dispose())

  it("serves the document for the sandbox's own base URL, without the admin token", async () => {
    const response = await fetch('https://api.example.com/__sandbox/openapi.json')
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toMatch(/application\/json/)
    const doc = (await response.json()) as OpenApiDocument
    expect(doc).toEqual(buildOpenApiDocument({ baseUrl: 'https://api.example.com/v1' }))
    expect(doc.servers).toEqual([{ url: 'https://api.example.com/v1', description: expect.any(String) }])
  })
})

/**
 * A request for a route, generated from it: its path parameters an id that exists (a subscriber
 * under `/subscribers/`, a captured message under `/messages/`), its body a value its schema
 * accepts (the first of a seeded sample), no query.
 */
async function requestOf(route: Route, v1: string, controls: string) {
  const first = async (url: string, field: string, headers: Record<string, string>) =>
    ((await (await fetch(url, { headers })).json()) as { data: Array<Record<string, string>> }).data[0]?.[field]
  const ids: Record<string, string | undefined> = {
    subscribers: await first(`${v1}/subscribers`, 'id', auth()),
    messages: await first(`${controls}/messages`, 'message_id', {}),
  }
  const path = route.path.replace(
    /([a-z_-]+)\/\{[^}]+\}/g,
    (_, collection: string) => `${collection}/${ids[collection] ?? 'example'}`,
  )
  const url = route.scope === 'api' ? `${v1}${path}` : `${controls}${path.slice('/__sandbox'.length)}`
  const schema = route.body ? (isBodySchema(route.body) ? route.body.schema : route.body) : undefined
  const json = schema
    ? (z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as Parameters<typeof valid>[0])
    : undefined
  const body = json ? fc.sample(valid(json, json.$defs), { numRuns: 1, seed: 1 })[0] : undefined
  const headers: Record<string, string> =
    route.scope === 'api' ? auth() : body === undefined ? {} : { 'content-type': 'application/json' }
  return { url, body, headers }
}

describe('real answers match the published schemas', () => {
  const doc = buildOpenApiDocument()
  const ajv = addFormats(new Ajv2020({ strict: false, allErrors: true }))
  let resolved: OpenApiDocument
  let api: ReturnType<typeof inProcess>
  afterAll(() => api.dispose())
  beforeAll(async () => {
    api = inProcess({ deliveryMs: 0, subscribers: 2 })
    const validator = new Validator()
    await validator.validate(structuredClone(doc))
    resolved = validator.resolveRefs() as OpenApiDocument
  })

  function operation(operationId: string): Operation {
    for (const item of Object.values(resolved.paths)) {
      for (const op of Object.values(item) as Operation[]) if (op?.operationId === operationId) return op
    }
    throw new Error(`no operation ${operationId}`)
  }

  async function check(operationId: string, response: Response): Promise<unknown> {
    const op = operation(operationId)
    const declared = op.responses[String(response.status)] ?? op.responses[`${String(response.status)[0]}XX`]
    expect(declared, `${operationId} answered ${response.status}, which the document does not list`).toBeDefined()
    // A response declared without content (a 204) has no body and no Content-Type.
    if (declared.content === undefined) {
      expect(await response.text(), `${operationId} ${response.status} declares no body`).toBe('')
      expect(response.headers.get('content-type'), `${operationId} ${response.status} declares no body`).toBeNull()
      return undefined
    }
    const [type, media] = Object.entries(declared.content)[0] ?? []
    expect(response.headers.get('content-type') ?? '').toContain(type)
    if (type === 'text/event-stream') {
      // An endless stream: read its first event (the test sends one), check it, hang up.
      const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader()
      let text = ''
      while (!/\ndata: .*\n\n/.test(text)) text += (await reader.read()).value ?? ''
      await reader.cancel()
      const event = JSON.parse(/\ndata: (.*)\n/.exec(text)![1])
      const validate = ajv.compile((media as unknown as { 'x-itemSchema': object })['x-itemSchema'])
      expect(validate(event), `${operationId} event: ${ajv.errorsText(validate.errors)}`).toBe(true)
      return event
    }
    if (type !== 'application/json') return response.text()
    const body = await response.json()
    const validate = ajv.compile(media!.schema as object)
    expect(validate(body), `${operationId} ${response.status}: ${ajv.errorsText(validate.errors)}`).toBe(true)
    return body
  }

  it('for every operation, successes and errors alike', async () => {
    // The check has teeth: a body the schema does not describe fails.
    const sendResult = operation('sendEmail').responses['200'].content!['application/json'].schema as object
    expect(ajv.compile(sendResult)({ success: true, message_id: 'msg_x', status: 'queued', extra: 1 })).toBe(false)
    const seen = new Set<string>()
    const call = async (
      operationId: string,
      method: string,
      url: string,
      body?: unknown,
      headers: Record<string, string> = auth(),
    ) => {
      seen.add(operationId)
      return check(
        operationId,
        await fetch(url, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) }),
      )
    }
    const v1 = api.base
    const sent = (await call('sendEmail', 'POST', `${v1}/email/send`, {
      to: 'ana@example.com',
      subject: 'Hi',
      html: '<p>Hi</p>',
      from: { email: 'shop@example.com', name: 'Shop' },
    })) as { message_id: string }
    await call('sendEmail', 'POST', `${v1}/email/send`, { to: 'ana@', subject: 'Hi', html: 'x' })
    await call('sendEmail', 'POST', `${v1}/email/send`, { to: 'ana@example.com', subject: 'Hi', html: 'x' }, {})
    await call('sendSms', 'POST', `${v1}/sms/send`, { to: '+14155550123', message: 'Hello €', from: 'Acme' })
    await call(
      'sendSms',
      'POST',
      `${v1}/sms/send`,
      { to: '+14155550123', message: 'x' },
      auth('test_pro', { prefer: 'code=503' }),
    )
    await call('sendWhatsapp', 'POST', `${v1}/whatsapp/send`, {
      to: '+14155550123',
      template: 'order_update',
      language: 'en_US',
      parameters: { name: 'Ana' },
    })
    const created = (await call('createSubscriber', 'POST', `${v1}/subscribers`, {
      email: 'bo@example.com',
      phone: '+14155550124',
      first_name: 'Bo',
      tags: ['vip'],
    })) as { id: string }
    await call('listSubscribers', 'GET', `${v1}/subscribers?page=1&limit=2`)
    await call('listSubscribers', 'GET', `${v1}/subscribers?limit=0`)
    await call('getSubscriber', 'GET', `${v1}/subscribers/${created.id}`)
    await call('getSubscriber', 'GET', `${v1}/subscribers/sub_missing`)
    await call('updateSubscriber', 'PUT', `${v1}/subscribers/${created.id}`, { first_name: null, tags: ['a', 'b'] })
    await call(
      'getSubscriber',
      'GET',
      `${v1}/subscribers/${created.id}`,
      undefined,
      auth('test_pro', { prefer: 'code=429' }),
    )

    const controls = `${new URL(v1).origin}/__sandbox`
    const none = {}
    await call('sandboxHealth', 'GET', `${controls}/health`, undefined, none)
    expect(await call('whoami', 'GET', `${controls}/whoami`, undefined, none)).toMatchObject({
      role: 'admin',
      name: null,
    })
    await call('sandboxOpenApi', 'GET', `${controls}/openapi.json`, undefined, none)
    await call('listCapturedMessages', 'GET', `${controls}/messages?channel=email`, undefined, none)
    await call('listCapturedMessages', 'GET', `${controls}/messages?channel=fax`, undefined, none)
    const message = (await call(
      'getCapturedMessage',
      'GET',
      `${controls}/messages/${sent.message_id}`,
      undefined,
      none,
    )) as { status: string }
    expect(message.status).toBe('delivered')
    await call('getCapturedMessage', 'GET', `${controls}/messages/msg_missing`, undefined, none)
    expect(
      await call(
        'getCapturedMessageHtml',
        'GET',
        `${controls}/messages/${sent.message_id}/html?remote=1`,
        undefined,
        none,
      ),
    ).toBe('<p>Hi</p>')
    const preview = (await call(
      'getCapturedMessagePreview',
      'GET',
      `${controls}/messages/${sent.message_id}/preview`,
      undefined,
      none,
    )) as { html_url: string }
    expect(await (await fetch(new URL(`${preview.html_url}&remote=1`, controls))).text()).toBe('<p>Hi</p>')
    await call('getCapturedMessagePreview', 'GET', `${controls}/messages/msg_missing/preview`, undefined, none)
    await call('getMessageChecks', 'GET', `${controls}/messages/${sent.message_id}/checks`, undefined, none)
    await call('getMessageChecks', 'GET', `${controls}/messages/msg_missing/checks`, undefined, none)
    await call(
      'getMessageChecks',
      'GET',
      `${controls}/messages/${sent.message_id}/checks?links=sometimes`,
      undefined,
      none,
    )
    // Refused before any render (a render needs Chromium: test/screenshots covers the PNG).
    await call(
      'getCapturedMessageScreenshot',
      'GET',
      `${controls}/messages/${sent.message_id}/screenshot.png?width=50`,
      undefined,
      none,
    )
    await call(
      'getCapturedMessageScreenshot',
      'GET',
      `${controls}/messages/msg_missing/screenshot.png`,
      undefined,
      none,
    )
    await call('getMessageChecks', 'GET', `${controls}/messages/${sent.message_id}/checks`, undefined, none)
    await call(
      'getMessageChecks',
      'GET',
      `${controls}/messages/${sent.message_id}/checks?links=sometimes`,
      undefined,
      none,
    )
    await call('getMessageChecks', 'GET', `${controls}/messages/msg_missing/checks`, undefined, none)
    await call('listRequests', 'GET', `${controls}/requests?limit=5`, undefined, none)
    await call(
      'addFault',
      'POST',
      `${controls}/faults`,
      { status: 503, path: '/v1/sms/send', times: 1 },
      { 'content-type': 'application/json' },
    )
    await call(
      'addFault',
      'POST',
      `${controls}/faults`,
      { status: 503, nope: 1 },
      { 'content-type': 'application/json' },
    )
    await call('listFaults', 'GET', `${controls}/faults`, undefined, none)
    await call('listKeys', 'GET', `${controls}/keys`, undefined, none)
    await call('getClock', 'GET', `${controls}/clock`, undefined, none)
    await call('setClock', 'POST', `${controls}/clock`, { advance_ms: 1000 }, { 'content-type': 'application/json' })
    await call('setClock', 'POST', `${controls}/clock`, { advance_ms: -1 }, { 'content-type': 'application/json' })
    await call('waitForMessage', 'GET', `${controls}/messages/wait?channel=email&timeout=0`, undefined, none)
    await call(
      'waitForMessage',
      'GET',
      `${controls}/messages/wait?channel=whatsapp&to=%2B19999999999&timeout=1`,
      undefined,
      none,
    )
    const events = fetch(`${controls}/events`)
    setTimeout(() => void api.sandbox.reset('journal'), 50)
    seen.add('streamEvents')
    await check('streamEvents', await events)
    await call('deleteCapturedMessage', 'DELETE', `${controls}/messages/${sent.message_id}`, undefined, none)
    await call('deleteCapturedMessage', 'DELETE', `${controls}/messages/${sent.message_id}`, undefined, none)
    await call('clearFaults', 'DELETE', `${controls}/faults`, undefined, none)
    await call('clearCapturedMessages', 'DELETE', `${controls}/messages`, undefined, none)
    await call('resetSandbox', 'POST', `${controls}/reset?scope=journal`, undefined, none)
    await call('resetSandbox', 'POST', `${controls}/reset`, undefined, none)
    const json = { 'content-type': 'application/json' }
    await call('listTemplates', 'GET', `${controls}/templates`, undefined, none)
    await call(
      'simulateInbound',
      'POST',
      `${controls}/inbound`,
      { channel: 'sms', key: 'test_pro', from: '+14155550123', text: 'STOP' },
      json,
    )
    await call(
      'simulateInbound',
      'POST',
      `${controls}/inbound`,
      { channel: 'sms', key: 'nope', from: '+14155550123', text: 'hi' },
      json,
    )
    await call('listOptOuts', 'GET', `${controls}/opt-outs`, undefined, none)
    await call('addOptOut', 'POST', `${controls}/opt-outs`, { key: 'test_pro', number: '+14155550199' }, json)
    await call('removeOptOut', 'DELETE', `${controls}/opt-outs`, { key: 'test_pro', number: '+14155550199' }, json)
    await call('removeOptOut', 'DELETE', `${controls}/opt-outs`, { key: 'test_pro', number: '+14155550199' }, json)
    await call('listWebhookAttempts', 'GET', `${controls}/webhooks`, undefined, none)
    await call('replayWebhook', 'POST', `${controls}/webhooks/wha_missing/replay`, undefined, none)
    const tools = (await call(
      'mcpPost',
      'POST',
      `${controls}/mcp`,
      { jsonrpc: '2.0', id: 1, method: 'tools/list' },
      { 'content-type': 'application/json' },
    )) as { result: { tools: unknown[] } }
    expect(tools.result.tools.length).toBeGreaterThan(0)
    await call(
      'mcpPost',
      'POST',
      `${controls}/mcp`,
      { jsonrpc: '1.0', id: 1, method: 'tools/list' },
      { 'content-type': 'application/json' },
    )
    await call('mcpGet', 'GET', `${controls}/mcp`, undefined, none)
    await call('mcpDelete', 'DELETE', `${controls}/mcp`, undefined, none)
    await call('livez', 'GET', `${controls}/livez`, undefined, none)
    await call('readyz', 'GET', `${controls}/readyz?wait=5s`, undefined, none)
    await call('readyz', 'GET', `${controls}/readyz?wait=forever`, undefined, none)
    await call('metrics', 'GET', `${controls}/metrics`, undefined, none)

    // Every operation the calls above do not reach (a new route, say): one request read off its
    // route, so a route needs no line here to be called and checked.
    for (const route of ROUTES.filter((r) => !seen.has(r.operationId))) {
      const request = await requestOf(route, v1, controls)
      await call(route.operationId, route.method, request.url, request.body, request.headers)
    }

    const all = Object.values(doc.paths).flatMap((item) =>
      Object.values(item).flatMap((op) => (op as Operation).operationId ?? []),
    )
    expect([...seen].sort()).toEqual(all.sort())
    // About a hundred calls: 3 s alone, near 20 s on a loaded machine.
  }, 60_000)
})
