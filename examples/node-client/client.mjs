import { pathToFileURL } from 'node:url'

// A plain-fetch client for the messaging API, the way a backend would write one. Nothing here
// knows about sendbox except the base URL: point it at the real service and it works unchanged.

/**
 * @param {{ baseUrl: string, apiKey: string, maxRetries?: number }} options
 */
export function createClient({ baseUrl, apiKey, maxRetries = 2 }) {
  /** Sends one request; on 429 waits for Retry-After and tries again (at most maxRetries times). */
  async function request(method, path, body) {
    for (let attempt = 0; ; attempt++) {
      const response = await fetch(`${baseUrl}${path}`, {
        method,
        headers: {
          Authorization: `Bearer ${apiKey}`,
          ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      })
      if (response.status === 429 && attempt < maxRetries) {
        const seconds = Number(response.headers.get('Retry-After') ?? '1')
        await new Promise((resolve) => setTimeout(resolve, seconds * 1000))
        continue
      }
      const json = await response.json()
      if (!response.ok) {
        const error = new Error(`${method} ${path} → ${response.status} ${json.error?.code}: ${json.error?.message}`)
        Object.assign(error, { status: response.status, code: json.error?.code, param: json.error?.param })
        throw error
      }
      return { body: json, remaining: Number(response.headers.get('X-RateLimit-Remaining')) }
    }
  }

  return {
    sendEmail: (to, subject, html) => request('POST', '/email/send', { to, subject, html }).then((r) => r.body),
    sendSms: (to, message) => request('POST', '/sms/send', { to, message }).then((r) => r.body),
    sendWhatsapp: (to, template, language, parameters) =>
      request('POST', '/whatsapp/send', { to, template, language, parameters }).then((r) => r.body),
    createSubscriber: (fields) => request('POST', '/subscribers', fields).then((r) => r.body),
    updateSubscriber: (id, fields) =>
      request('PUT', `/subscribers/${encodeURIComponent(id)}`, fields).then((r) => r.body),
    getSubscriber: (id) => request('GET', `/subscribers/${encodeURIComponent(id)}`).then((r) => r.body),
    listSubscribers: (page = 1, limit = 20) =>
      request('GET', `/subscribers?page=${page}&limit=${limit}`).then((r) => r.body),
    request,
  }
}

/**
 * Sandbox only: the captured message, from GET /__sandbox/messages/{id} (what "would have been
 * sent", and its status history).
 */
export async function capturedMessage(baseUrl, messageId) {
  const origin = new URL(baseUrl).origin
  const response = await fetch(`${origin}/__sandbox/messages/${encodeURIComponent(messageId)}`)
  return response.json()
}

// `node examples/node-client/client.mjs` against a running `npx sendbox`: SENDBOX_URL is its
// origin (default http://127.0.0.1:4010), as for sendbox/client and sendbox/playwright.
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const baseUrl = `${process.env.SENDBOX_URL ?? 'http://127.0.0.1:4010'}/v1`
  const client = createClient({ baseUrl, apiKey: process.env.SENDBOX_API_KEY ?? 'test_pro' })
  const sent = await client.sendEmail('ana@example.com', 'Welcome', '<p>Hello Ana</p>')
  console.log('email accepted:', sent.message_id, sent.status)
  const sms = await client.sendSms('+14155550123', 'Your code is 123456')
  console.log('sms accepted:', sms.message_id)
  const subscriber = await client.createSubscriber({
    email: `ana+${Date.now()}@example.com`,
    first_name: 'Ana',
    tags: ['newsletter'],
  })
  console.log('subscriber created:', subscriber.id)
  const page = await client.listSubscribers(1, 5)
  console.log(`subscribers: ${page.pagination.total} in all, ${page.pagination.pages} page(s) of 5`)
  try {
    await client.sendEmail('not-an-address', 'x', 'x')
  } catch (error) {
    console.log('refused as expected:', error.code, `(${error.param})`)
  }
  const captured = await capturedMessage(baseUrl, sent.message_id)
  console.log('outbox says:', captured.status, captured.email.subject)
}
