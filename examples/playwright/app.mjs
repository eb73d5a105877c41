// The application under test: a tiny web app with a "forgot password" form. It sends the reset
// email through the messaging API at MESSAGING_API_URL (sendbox in tests, the real service in
// production) and knows nothing about sendbox.
import { randomBytes } from 'node:crypto'
import { createServer } from 'node:http'

const page = (body) =>
  `<!doctype html><html><head><meta charset="utf-8"><title>Acme</title></head><body>${body}</body></html>`

/** Starts the app; resolves with its URL and a close function. */
export function startApp({ apiUrl, apiKey = 'test_pro', port = 0 }) {
  const tokens = new Map()
  const server = createServer(async (req, res) => {
    const url = new URL(req.url, 'http://app')
    const origin = `http://${req.headers.host}`
    if (req.method === 'GET' && url.pathname === '/') {
      res.writeHead(200, { 'content-type': 'text/html' })
      return res.end(
        page(
          '<h1>Forgot your password?</h1><form method="post" action="/forgot"><label>Email <input name="email" type="email" required></label><button>Send reset link</button></form>',
        ),
      )
    }
    if (req.method === 'POST' && url.pathname === '/forgot') {
      let body = ''
      for await (const chunk of req) body += chunk
      const email = new URLSearchParams(body).get('email') ?? ''
      const token = randomBytes(12).toString('hex')
      tokens.set(token, email)
      const link = `${origin}/reset?token=${token}&email=${encodeURIComponent(email)}`
      const sent = await fetch(`${apiUrl}/email/send`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${apiKey}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({
          to: email,
          subject: 'Reset your password',
          from: { email: 'security@acme.test', name: 'Acme' },
          html: `<h1>Reset Your Password</h1><p>Someone asked to reset the password of ${email}.</p><p><a href="${link.replace(/&/g, '&amp;')}">Choose a new password</a></p>`,
        }),
      })
      res.writeHead(sent.ok ? 200 : 502, { 'content-type': 'text/html' })
      return res.end(page(sent.ok ? '<p id="done">Check your inbox.</p>' : '<p>Could not send the email.</p>'))
    }
    if (req.method === 'GET' && url.pathname === '/reset') {
      const email = tokens.get(url.searchParams.get('token') ?? '')
      res.writeHead(email ? 200 : 400, { 'content-type': 'text/html' })
      return res.end(
        page(email ? `<h1>Choose a new password for ${email}</h1>` : '<h1>This link is invalid or expired</h1>'),
      )
    }
    res.writeHead(404).end()
  })
  return new Promise((resolve) => {
    server.listen(port, '127.0.0.1', () => {
      resolve({
        url: `http://127.0.0.1:${server.address().port}`,
        close: () => new Promise((done) => server.close(done)),
      })
    })
  })
}
