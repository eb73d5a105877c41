// The app's own code: it calls the API's real base URL with fetch. sendbox answers in the
// browser through MSW's service worker, so nothing leaves the page.
import { setupWorker } from 'msw/browser'
import { createSandbox, type CapturedMessage } from 'sendbox'

const API = 'https://api.sendbox.test/v1'
const API_KEY = 'test_pro'

// 3 seeded subscribers per key, from faker (loaded lazily, as its own chunk, only because of this).
const sandbox = createSandbox({ baseUrl: API, deliveryMs: 300, subscribers: 3, seed: 42 })
const worker = setupWorker(...sandbox.handlers)

const form = document.querySelector<HTMLFormElement>('#send-form')!
const result = document.querySelector<HTMLParagraphElement>('#result')!
const outbox = document.querySelector<HTMLUListElement>('#outbox')!
const workerState = document.querySelector<HTMLParagraphElement>('#worker-state')!
const subscribers = document.querySelector<HTMLParagraphElement>('#subscribers')!

/** What the real app would do: POST /email/send with its key. */
async function sendEmail(to: string, subject: string, html: string) {
  const response = await fetch(`${API}/email/send`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${API_KEY}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ to, subject, html }),
  })
  return { status: response.status, body: (await response.json()) as Record<string, unknown> }
}

function renderOutbox(messages: readonly CapturedMessage[]) {
  outbox.replaceChildren(
    ...messages.map((message) => {
      const item = document.createElement('li')
      item.dataset.messageId = message.message_id
      const badge = document.createElement('span')
      badge.className = 'status'
      badge.dataset.status = message.status
      badge.textContent = message.status
      item.append(`${message.to} — ${message.channel === 'email' ? message.email.subject : message.text} `, badge)
      return item
    }),
  )
}

form.addEventListener('submit', async (event) => {
  event.preventDefault()
  const data = new FormData(form)
  const { status, body } = await sendEmail(
    String(data.get('to')),
    String(data.get('subject')),
    String(data.get('html')),
  )
  result.textContent = `${status} ${JSON.stringify(body)}`
})

// The outbox is live: statuses move queued → sent → delivered on the sandbox's clock.
sandbox.outbox.subscribe(() => renderOutbox(sandbox.outbox.list()))

await worker.start({ serviceWorker: { url: '/mockServiceWorker.js' }, onUnhandledRequest: 'bypass', quiet: true })
workerState.textContent = 'Mock service worker ready: requests to the API are answered by sendbox in this tab.'
workerState.dataset.ready = 'true'
form.querySelector('button')!.disabled = false

const list = await fetch(`${API}/subscribers?limit=3`, { headers: { Authorization: `Bearer ${API_KEY}` } })
const page = (await list.json()) as { data: Array<{ first_name: string | null }>; pagination: { total: number } }
subscribers.textContent = `${page.pagination.total} subscribers: ${page.data.map((s) => s.first_name).join(', ')}`
